package outputs

import (
	"regexp"
	"strings"
	"testing"
)

// TestStripperCompilesOnce: a Stripper compiles its patterns once, not
// at every text it strips (a scenario's patterns meet every run's output).
func TestStripperCompilesOnce(t *testing.T) {
	s := NewStripper([]*regexp.Regexp{regexp.MustCompile(`^draft model loaded: .*\n`), regexp.MustCompile(`x{2,40}y`)})
	text := strings.Repeat("nothing to strip here\n", 20)
	s.Strip(text, 0)
	if n := testing.AllocsPerRun(50, func() { s.Strip(text, 0) }); n > 0 {
		t.Errorf("stripping a text that matches nothing allocated %v times: the patterns are compiled again", n)
	}
	if out, n, _ := s.Strip("a\ndraft model loaded: m\nb xxy", 0); out != "a\nb " || n != 2 {
		t.Errorf("got %q, %d", out, n)
	}
}
