package bisect

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/machine"
	"github.com/decodebench/decodebench/redact"
)

// A build that floods its output keeps only its head and its tail, in
// memory and in its log, which says how much was cut between them; its
// last line (where a failed build says why) is kept, and the build still
// counts by its exit status.
func TestBuildOutputIsBounded(t *testing.T) {
	dataDir := t.TempDir()
	res, err := build(context.Background(), dataDir, t.TempDir(), "yes 'cc -c ggml.c' | head -c 67108864; echo; echo 'error: the last line'; exit 0", "builds/flood.log", &redact.Redactor{})
	if err != nil || !res.OK {
		t.Fatalf("build = %+v, %v", res, err)
	}
	b, err := os.ReadFile(filepath.Join(dataDir, "builds", "flood.log"))
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > BuildLogHeadBytes+BuildLogTailBytes+1024 {
		t.Errorf("the build log is %d bytes, past its head and tail", len(b))
	}
	if !strings.Contains(string(b), "bytes of build output were cut here") {
		t.Errorf("the log does not say what was cut")
	}
	if !strings.HasSuffix(string(b), "error: the last line\n") || !strings.HasPrefix(string(b), "cc -c ggml.c\n") {
		t.Errorf("the log lost its head or its tail: %q … %q", b[:min(len(b), 40)], b[max(0, len(b)-40):])
	}
}

// git's output is bounded as every tool's: a failure quotes one short
// line of its complaint however much it prints, and output past
// machine.MaxToolOutput is an error naming the bound.
func TestGitOutputIsBounded(t *testing.T) {
	dir := t.TempDir()
	script := "#!/bin/sh\nPATH='" + os.Getenv("PATH") + "'\n" +
		"case \" $* \" in *\" log \"*) exec yes ;; *\" config \"*) exit 1 ;; esac\n" +
		"head -c 67108864 /dev/zero | tr '\\0' x >&2; exit 128\n"
	if err := os.WriteFile(filepath.Join(dir, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	_, err := git(context.Background(), t.TempDir(), "rev-parse", "HEAD")
	if err == nil || !strings.Contains(err.Error(), "exit status 128: xxx") {
		t.Fatalf("git = %.300v, want its exit status", err)
	}
	if len(err.Error()) > 512 {
		t.Errorf("the error quotes %d bytes of git's output", len(err.Error()))
	}
	_, err = git(context.Background(), t.TempDir(), "log")
	if !errors.Is(err, machine.ErrToolOutputTooLarge) || len(err.Error()) > 512 {
		t.Errorf("git log flooding = %.300v, want ErrToolOutputTooLarge", err)
	}
}
