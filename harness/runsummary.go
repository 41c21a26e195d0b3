package harness

import (
	"fmt"
	"strings"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/internal/abbrev"
	"github.com/decodebench/decodebench/schema"
)

// runSummary is the progress line's account of a finished run.
func (c *campaign) runSummary(r schema.Run) string {
	if !r.OK() {
		return "FAILED: " + abbrev.FirstLine(r.Error)
	}
	p := c.policy
	var parts []string
	if v, ok := r.Metrics[p.Primary]; ok {
		parts = append(parts, fmt.Sprintf("%s %.4g", p.Primary, v))
	}
	for _, k := range p.Counters {
		cr, ok := r.Counters[k.Name]
		if !ok {
			continue
		}
		mark := "ok"
		if ex, has := k.Expect[r.Arm]; has && !analysis.CounterHolds(k, ex, analysis.Reading{Value: cr.Value, Text: cr.Text, Impossible: cr.Impossible}) {
			mark = "FAILS " + ex.String()
		}
		if cr.Impossible {
			mark += ", not a finite number"
		} else if cr.Absent {
			mark += ", source absent"
		}
		seen := fmt.Sprintf("%g", cr.Value)
		if cr.Text != "" {
			seen = cr.Text
		}
		parts = append(parts, fmt.Sprintf("%s=%s (%s)", k.Name, seen, mark))
	}
	if g := p.Gates.ContendedCPU; r.Contention != nil && g > 0 && r.Contention.Others > g && analysis.ContentionJudged(r.Metrics, p.Gates) {
		parts = append(parts, fmt.Sprintf("CONTENDED: other processes used %.0f%% of the CPU", r.Contention.Others*100))
	}
	return strings.Join(parts, ", ")
}
