package engine

import (
	"regexp"
	"strings"
	"testing"
)

// A command's standard output that its log interleaves with standard
// error (llama-completion's text among its log lines) fits the window's
// lines; a text the lines do not hold in order does not, and the text
// delimited as the harness delimits it is the output where nothing
// interleaved.
func TestStdoutFits(t *testing.T) {
	lines := []string{
		"0.01 I load",
		" Once upon a time0.02 I sampler seed: 1",
		"0.03 I generate: n_predict = 64",
		"\x01auhu2\xc0 O",
		"",
		"0.04 I eval time = 1 ms / 63 runs",
	}
	out := ValidUTF8("Once upon a time\x01auhu2\xc0 O")
	if !StdoutFits(out, lines) {
		t.Errorf("interleaved output %q does not fit", out)
	}
	for _, forged := range []string{"Once upon a time\x01auhu2 cat", "Once upon a fox", "O\x01auhu2 Once"} {
		if StdoutFits(forged, lines) {
			t.Errorf("%q fits lines that do not hold it", forged)
		}
	}
	win := []string{"arm=2", "BEGIN", "the quick brown cat", "END"}
	after, before := regexp.MustCompile(`BEGIN\n`), regexp.MustCompile(`\nEND`)
	if got := CommandText(strings.Join(win, "\n"), after, before); got != "the quick brown cat" {
		t.Errorf("delimited %q", got)
	}
	if StdoutFits("the quick brown fox", win) {
		t.Error("another run's text fits")
	}
}
