package redact

import (
	"strings"
	"testing"
)

// hasFold finds a word in any case of its letters, and of a first byte
// without case, and says no where it is not.
func TestHasFold(t *testing.T) {
	for _, c := range []struct {
		s, word string
		want    bool
	}{
		{"x Bearer y", "bearer", true}, {"BEARER", "bearer", true}, {"xbearer", "bearer", true},
		{"beare", "bearer", false}, {"b e a r e r", "bearer", false}, {"", "bearer", false},
		{"ab-1x -1", "-1", true}, {"--", "-1", false}, {"bbbbbearer", "bearer", true}, {"BbBbBEARER", "bearer", true},
	} {
		if got := hasFold(c.s, c.word); got != c.want {
			t.Errorf("hasFold(%q, %q) = %v", c.s, c.word, got)
		}
	}
	// A lower-case text without the upper-case letter (BenchmarkTextLowerCase
	// times it).
	big := strings.Repeat("abcdefg ", 1<<18)
	if hasFold(big, "bearer") {
		t.Error("found bearer in a text without it")
	}
}

// BenchmarkTextLowerCase masks 2 MB of lower-case text, which holds no B
// for "bearer" (quadratic in hasFold before: 4 s).
func BenchmarkTextLowerCase(b *testing.B) {
	s := strings.Repeat("abcdefg bearing curl ", 1<<17)[:2<<20]
	var r *Redactor
	for b.Loop() {
		r.Text(s)
	}
}
