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
//
// A run cut off (method.cut_off_s) belongs to an interrupted campaign
// alone (a finished one journaled every run it began), and lies between
// the last of the campaign's start, its last resume and its last run's
// end, and its finish.
func checkTimeUse(rec *schema.Record) []Problem {
	var out []Problem
	m := rec.Method
	switch room := cutOffRoom(rec); {
	case m.CutOffS != 0 && !m.Interrupted:
		out = append(out, Problem{"Where the time went", fmt.Sprintf("cut_off_s %.3f s on a campaign that was not interrupted: "+
			"only a stop cuts a run off, and a finished campaign journaled every run it began", m.CutOffS)})
	case m.CutOffS < 0 || m.CutOffS > room+cooldownTolerance.Seconds(): // monotonic time against wall times, as a cooldown
		// The phases' sums would say it again as a phase below zero.
		return append(out, Problem{"Where the time went", fmt.Sprintf("cut_off_s %.3f s, where the run a stop cut off lies within the %.3f s "+
			"from the last of the campaign's start, its last resume and its last run's end to its finish", m.CutOffS, room)})
	}
	t, ok := rec.TimeUse()
	if !ok {
		return out
	}
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

// cutOffRoom is the time a run a stop cut off can have taken: from the
// last of the campaign's start, its last resume and its last run's end,
// to its finish.
func cutOffRoom(rec *schema.Record) float64 {
	m := rec.Method
	from := m.Started
	for _, at := range m.Resumed {
		if at.After(from) {
			from = at
		}
	}
	for _, r := range rec.Runs {
		if end := r.Start.Add(time.Duration(r.Seconds * float64(time.Second))); end.After(from) {
			from = end
		}
	}
	return max(0, m.Finished.Sub(from).Seconds())
}
