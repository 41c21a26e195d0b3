package recorder

import (
	"runtime"
	"strings"
	"testing"
)

// excerpt gives what cutting the text's runes gives (each byte that is not
// UTF-8 a U+FFFD), and reads no more of a long text than it keeps: an
// output of 20 MB costs what a short one does (it was converted whole to
// runes, 80 MB a run, for 24 characters).
func TestExcerptBounded(t *testing.T) {
	oracle := func(s string, n int) string {
		r := []rune(s)
		if len(r) <= n {
			return s
		}
		return string(r[:n]) + "…"
	}
	for _, s := range []string{"", "a", "héllo wörld", "\xff\xfeabc", "ab\xe2\x82", strings.Repeat("日本", 20), "x\u202ey"} {
		for n := range 12 {
			if got, want := excerpt(s, n), oracle(s, n); got != want {
				t.Errorf("excerpt(%q, %d) = %q, want %q", s, n, got, want)
			}
		}
	}
	long := strings.Repeat("an output of many megabytes ", 20<<20/28)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got := excerpt(long, 24)
	runtime.ReadMemStats(&after)
	if got != long[:24]+"…" {
		t.Fatalf("excerpt = %q", got)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<10 {
		t.Errorf("excerpt of 24 characters of a %d-byte text allocated %d bytes", len(long), n)
	}
}
