package analysis

import "github.com/decodebench/decodebench/scenarios"

// CounterHolds reports whether a counter's reading meets an expectation: a text
// source's reading is compared as text (or as its number). An impossible
// reading (a NaN, recorded as an absent 0) meets none, as Holds says; nor
// does an absent text reading (no /props field, no version output, a
// capture that did not match), which proves nothing of what ran: read as
// "", it met `!= b100` and passed an unidentified build.
func CounterHolds(c scenarios.CounterPolicy, ex scenarios.Expectation, rd Reading) bool {
	if rd.Impossible {
		return false
	}
	if c.Kind.Text() {
		if rd.Absent {
			return false
		}
		return ex.HoldsText(rd.Text, rd.Value)
	}
	return ex.Holds(rd.Value)
}
