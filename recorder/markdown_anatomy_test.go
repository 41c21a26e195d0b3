package recorder

import (
	"strings"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// The noise anatomy section says why it has no figures, words a
// between-start estimate floored at 0 as such, and advises a change of
// allocation only with its gain.
func TestAnatomySection(t *testing.T) {
	render := func(an *schema.Anatomy) string {
		r := &schema.Record{Schema: schema.Schema}
		r.Analysis.Anatomy = an
		var b strings.Builder
		st, _ := recordStyle(r, true)
		md := &mdWriter{b: &b, st: st}
		md.anatomy(r)
		return b.String()
	}
	fig := schema.AnatomyFigures{Starts: 9, PerStart: 3, BetweenCV: 4.95, WithinCV: 2.91, ReadyS: 1.2, StartS: 3.6, RequestS: 0.6}
	for _, tc := range []struct {
		an   *schema.Anatomy
		want []string
	}{
		{&schema.Anatomy{Metric: schema.DecodeTokS, Requests: 1, Gap: schema.AnatomyOneRequest}, []string{"## Noise anatomy", "Not estimated for `decode_tok_s`: every start served one request"}},
		{&schema.Anatomy{Metric: schema.DecodeTokS, Requests: 2, Warmup: 1, Pooled: &fig, Unbounded: true, Advice: 16, AdviceMax: 16, WidthChange: -0.29},
			[]string{"is unbounded: the means of the 9 starts varied no more", "**16**", "set `schedule.requests: 16`", "29% narrower"}},
		{&schema.Anatomy{Metric: schema.DecodeTokS, Requests: 1, Warmup: 1, Pooled: &fig, Optimum: 1.44, Advice: 1, AdviceMax: 16},
			[]string{"| pooled | 9 | 3 | 4.95% | 2.91% | 1.20 s | 3.60 s | 0.600 s |", "k* = √((start/request)·(within/between)) = 1.44", "keep `schedule.requests: 1`"}},
	} {
		got := render(tc.an)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("section lacks %q:\n%s", w, got)
			}
		}
	}
}
