package review

import (
	"fmt"
	"sort"

	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/schema"
)

// decodeClocks holds each arm's client decode rate to what the engine's
// own timings (held to its log) allow, as the analysis holds its two
// clocks (schema.ClocksBound, on the median over the arm): the median
// over an arm's finished runs of each start's decode ratio (decodeRatio,
// the geometric mean over its measured requests, as the start's value
// is their mean) must be at most 1 + ClocksBound. A rate raised in more
// than half of an arm's starts (the verdict compares medians) is refused;
// one request the engine stalled after is not.
type decodeClocks map[string][]startRatio

// startRatio is one start's decode ratio.
type startRatio struct {
	seq   int
	ratio float64
}

func (d decodeClocks) add(r schema.Run, ratio float64) {
	d[r.Arm] = append(d[r.Arm], startRatio{r.Seq, ratio})
}

// problems names each arm whose median ratio is past the bound, with its
// run of the highest.
func (d decodeClocks) problems(arms []schema.ArmInfo) []string {
	var out []string
	for _, a := range arms {
		rs := d[a.Name]
		if len(rs) == 0 {
			continue
		}
		xs := make([]float64, len(rs))
		top := rs[0]
		for i, s := range rs {
			xs[i] = s.ratio
			if s.ratio > top.ratio {
				top = s
			}
		}
		sort.Float64s(xs)
		med := xs[len(xs)/2]
		if len(xs)%2 == 0 {
			med = (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2
		}
		if med <= 1+schema.ClocksBound {
			continue
		}
		out = append(out, fmt.Sprintf("arm %s: its runs' decode_tok_s is %s times what the engine's timings allow (the median over its %d runs, at most %s; run %d's %s)",
			termsafe.String(a.Name), approx(med), len(xs), approx(1+schema.ClocksBound), top.seq, approx(top.ratio)))
	}
	return out
}
