package review

import (
	"fmt"
	"time"

	"github.com/decodebench/decodebench/schema"
)

// checkTimeUse refuses a campaign whose time does not add up: a phase of
// "Where the time went" below zero (schema.Record.TimeUse). The phases
// inside the runs are the runs' own timings and never negative; what lies
// outside them is the wall time (method.started to method.finished) less
// the runs' spans, the divergence diagnosis and the interruptions, so a
// negative one says that the method's times claim less time than the runs
// and the gaps between them took: a wall time shortened by hand, a
// diagnosis_s below zero, or a gap counted twice (as a campaign resumed
// twice with no run between once did).
func checkTimeUse(rec *schema.Record) []Problem {
	t, ok := rec.TimeUse()
	if !ok {
		return nil
	}
	var out []Problem
	for _, p := range t.Phases {
		if p.Seconds < -1e-6 {
			out = append(out, Problem{"Where the time went", fmt.Sprintf("phase %s comes to %.3f s, below zero: "+
				"the campaign's wall time (%s, method.started to method.finished) is less than its runs' spans, "+
				"its diagnosis (diagnosis_s) and its interruptions (%d resume(s)) add up to",
				p.Phase, p.Seconds, time.Duration(t.WallS*float64(time.Second)).Round(time.Millisecond), len(rec.Method.Resumed))})
		}
	}
	return out
}
