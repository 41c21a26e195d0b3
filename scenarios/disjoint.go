package scenarios

import "math"

// Disjoint reports whether no value satisfies both expectations, that is,
// whether a counter with these two expectations can tell the two arms apart.
// It is exact for every pair of finite constants: see witness.
func Disjoint(a, b Expectation) bool {
	if a.IsText || b.IsText {
		return disjointText(a, b)
	}
	_, ok := witness(a, b)
	return !ok
}

// span is the closed interval [lo, hi] of float64 values; it is empty when
// lo > hi.
type span struct{ lo, hi float64 }

// spans returns the values that satisfy e as at most two closed intervals
// of finite float64s. Strict bounds become closed ones through the float
// neighbour (math.Nextafter), so "> c" is exactly [next(c), MaxFloat64]: no
// float lies strictly between c and next(c). Holds is false for ±Inf and
// NaN, so the intervals stop at ±MaxFloat64. ±0 compare equal, and
// Nextafter steps from either to the smallest subnormal of the sign asked,
// so "> -0" and "> 0" give the same interval, as they should.
func (e Expectation) spans() []span {
	const top = math.MaxFloat64
	c := e.Value
	if math.IsNaN(c) { // refused by ParseExpectation; kept exact anyway
		if e.Op == "!=" {
			return []span{{-top, top}}
		}
		return nil
	}
	up, down := math.Nextafter(c, math.Inf(1)), math.Nextafter(c, math.Inf(-1))
	var out []span
	for _, s := range e.rawSpans(c, up, down) {
		// Only finite readings hold: clip to the finite floats. An
		// infinite constant (refused by ParseExpectation) stays exact:
		// "== +Inf" is [+Inf, MaxFloat64], empty.
		out = append(out, span{math.Max(s.lo, -top), math.Min(s.hi, top)})
	}
	return out
}

func (e Expectation) rawSpans(c, up, down float64) []span {
	const top = math.MaxFloat64
	switch e.Op {
	case "==":
		return []span{{c, c}}
	case "!=":
		return []span{{-top, down}, {up, top}}
	case ">":
		return []span{{up, top}}
	case ">=":
		return []span{{c, top}}
	case "<":
		return []span{{-top, down}}
	case "<=":
		return []span{{-top, c}}
	}
	return nil
}

// witness returns a value that satisfies both expectations, and false when
// there is none. Each expectation holds on a union of closed intervals (see
// spans); two such sets meet exactly when some pair of their intervals
// does, and then the larger lower bound lies in both.
func witness(a, b Expectation) (float64, bool) {
	for _, x := range a.spans() {
		for _, y := range b.spans() {
			lo, hi := math.Max(x.lo, y.lo), math.Min(x.hi, y.hi)
			if lo <= hi {
				return lo, true
			}
		}
	}
	return 0, false
}

// disjointText decides Disjoint when one expectation compares text,
// exactly as CounterHolds matches a text counter's reading: a text
// expectation compares the reading's text; a numeric one, the number the
// text stands for (TextNumber). A text expectation's text may itself be a
// number (`== "7"` keeps the quoted 7 as text), so "== TEXT" meets a
// numeric expectation when TEXT reads as a number it holds; and "!= TEXT"
// meets any satisfiable numeric expectation, since every number has
// spellings other than TEXT ("7", "7.0", "7e0").
func disjointText(a, b Expectation) bool {
	if !a.IsText {
		a, b = b, a
	}
	if !b.IsText {
		if a.Op == "==" {
			v, ok := TextNumber(a.Text)
			return !ok || !b.Holds(v)
		}
		_, ok := witness(b, b)
		return !ok
	}
	switch {
	case a.Op == "==" && b.Op == "==":
		return a.Text != b.Text
	case a.Op == "!=" && b.Op == "!=":
		return false
	}
	return a.Text == b.Text // one == and one !=
}
