package website

import "testing"

// TestUnrenderedBounds: a record check finds a problem in, or one larger
// than MaxRenderedRecord, is shown as its text; a committed record's size
// (the largest is 89 KB) that passes check is rendered.
func TestUnrenderedBounds(t *testing.T) {
	ok := source{page: recordPage{Problems: problemsView{Text: "none"}}}
	bad := source{page: recordPage{Problems: problemsView{Text: "1", Bad: true}}}
	for _, c := range []struct {
		s      source
		size   int
		render bool
	}{{ok, 89 << 10, true}, {ok, MaxRenderedRecord, true}, {ok, MaxRenderedRecord + 1, false}, {bad, 1000, false}} {
		if got := unrendered(c.s, c.size) == ""; got != c.render {
			t.Errorf("problems %v, %d bytes: rendered %v, want %v", c.s.page.Problems.Bad, c.size, got, c.render)
		}
	}
}
