package analysis

import "github.com/decodebench/decodebench/scenarios"

// CounterHolds reports whether a counter's reading meets an expectation: a text
// source's reading is compared as text (or as its number). An impossible
// reading (a NaN, recorded as an absent 0) meets none, as Holds says.
func CounterHolds(c scenarios.CounterPolicy, ex scenarios.Expectation, rd Reading) bool {
	if rd.Impossible {
		return false
	}
	if c.Kind.Text() {
		return ex.HoldsText(rd.Text, rd.Value)
	}
	return ex.Holds(rd.Value)
}
