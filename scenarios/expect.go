package scenarios

import (
	"fmt"
	"strconv"
	"strings"
)

// Expectation is a comparison a counter value must satisfy in an arm, such
// as "== 0" or "> 0".
type Expectation struct {
	Op    string // one of == != > >= < <=
	Value float64
}

var ops = []string{"==", "!=", ">=", "<=", ">", "<"}

// ParseExpectation parses "OP N". The operator is required: a bare number is
// refused because "0" is ambiguous between "== 0" and ">= 0" to a reader.
func ParseExpectation(s string) (Expectation, error) {
	t := strings.TrimSpace(s)
	for _, op := range ops {
		if rest, ok := strings.CutPrefix(t, op); ok {
			v, err := strconv.ParseFloat(strings.TrimSpace(rest), 64)
			if err != nil {
				return Expectation{}, fmt.Errorf("expectation %q: %q is not a number", s, strings.TrimSpace(rest))
			}
			return Expectation{Op: op, Value: v}, nil
		}
	}
	return Expectation{}, fmt.Errorf("expectation %q: want OP N with OP one of == != > >= < <=", s)
}

// Holds reports whether v satisfies the expectation.
func (e Expectation) Holds(v float64) bool {
	switch e.Op {
	case "==":
		return v == e.Value
	case "!=":
		return v != e.Value
	case ">":
		return v > e.Value
	case ">=":
		return v >= e.Value
	case "<":
		return v < e.Value
	case "<=":
		return v <= e.Value
	}
	return false
}

func (e Expectation) String() string {
	return e.Op + " " + strconv.FormatFloat(e.Value, 'g', -1, 64)
}

// Disjoint reports whether no value satisfies both expectations, that is,
// whether a counter with these two expectations can tell the two arms apart.
//
// Each expectation's set of values is a union of intervals whose endpoints
// are the expectations' constants, so the two sets overlap exactly when they
// share one of a few probe points: each constant, a point between them, and
// a point beyond each end.
func Disjoint(a, b Expectation) bool {
	lo, hi := min(a.Value, b.Value), max(a.Value, b.Value)
	probes := []float64{lo - 1, lo, (lo + hi) / 2, hi, hi + 1}
	for _, v := range probes {
		if a.Holds(v) && b.Holds(v) {
			return false
		}
	}
	return true
}
