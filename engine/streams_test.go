package engine

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A command that prints a line of standard output in pieces, with a line
// of standard error between them (llama-completion echoes its prompt
// token by token while it logs), has each line whole in its log: the
// secret in the output line is masked there as in the output, not left
// in two unmasked pieces around the other stream's line (an e2e run of
// llama-completion once failed check so, now and then).
func TestCommandStreamsKeepTheirLinesWhole(t *testing.T) {
	secret := regexp.MustCompile(`hf_[A-Za-z0-9]{20,}`)
	script := `printf 'Remember hf_Wq4'; sleep 0.2; echo 'sampler seed: 1' >&2; sleep 0.2; printf 'Wq4Wq4Wq4Wq4Wq4Wq4Wq4z once\n'; printf 'tail without newline'`
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	res, err := RunCommand(context.Background(), CommandConfig{Command: []string{"sh", "-c", script}, LogPath: log, Label: "t",
		Redact: func(s string) string { return secret.ReplaceAllString(s, "[redacted]") }})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	file := string(b)
	for _, want := range []string{"\nRemember [redacted] once\n", "\nsampler seed: 1\n", "\ntail without newline\n"} {
		if !strings.Contains(file, want) {
			t.Errorf("the log lacks the line %q:\n%s", want, file)
		}
	}
	for _, line := range strings.Split(file, "\n") {
		if !strings.HasPrefix(line, MarkerPrefix) && strings.Contains(line, "Wq4") && !strings.Contains(line, "[redacted]") {
			t.Errorf("the log holds a piece of the secret: %q", line)
		}
	}
	if got := strings.Join(res.Lines, "\n"); !strings.Contains(got, "Remember hf_Wq4Wq4Wq4Wq4Wq4Wq4Wq4Wq4z once") || !strings.Contains(got, "tail without newline") {
		t.Errorf("the window's lines: %q", res.Lines)
	}
	if string(res.Stdout) != "Remember hf_Wq4Wq4Wq4Wq4Wq4Wq4Wq4Wq4z once\ntail without newline" {
		t.Errorf("stdout %q", res.Stdout)
	}
}
