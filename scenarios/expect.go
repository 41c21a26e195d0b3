package scenarios

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Expectation is a comparison a counter value must satisfy in an arm, such
// as "== 0" or "> 0".
type Expectation struct {
	Op    string // one of == != > >= < <=
	Value float64
	// Text, when IsText, is the text an == or != expectation compares
	// a text counter's reading with ("== b11669").
	Text   string
	IsText bool
}

var ops = []string{"==", "!=", ">=", "<=", ">", "<"}

// ParseExpectation parses "OP N". The operator is required: a bare number is
// refused because "0" is ambiguous between "== 0" and ">= 0" to a reader.
func ParseExpectation(s string) (Expectation, error) {
	return parseExpectation(s, false)
}

// ParseTextExpectation parses the expectation of a counter that reads
// text (props, version): "OP N" as ParseExpectation, or "== TEXT" and
// "!= TEXT" when TEXT is not a number. Quotes around TEXT are taken off.
func ParseTextExpectation(s string) (Expectation, error) {
	return parseExpectation(s, true)
}

func parseExpectation(s string, text bool) (Expectation, error) {
	t := strings.TrimSpace(s)
	for _, op := range ops {
		if rest, ok := strings.CutPrefix(t, op); ok {
			num := strings.TrimSpace(rest)
			v, err := strconv.ParseFloat(num, 64)
			switch {
			case text && err != nil && !errors.Is(err, strconv.ErrRange):
				if op != "==" && op != "!=" {
					return Expectation{}, fmt.Errorf("expectation %q: text compares only with == or !=", s)
				}
				if uq, err := strconv.Unquote(num); err == nil {
					num = uq
				}
				if num == "" {
					return Expectation{}, fmt.Errorf("expectation %q: no text to compare with", s)
				}
				return Expectation{Op: op, Text: num, IsText: true}, nil
			case err != nil && !errors.Is(err, strconv.ErrRange):
				return Expectation{}, fmt.Errorf("expectation %q: %q is not a number", s, num)
			case math.IsNaN(v) || math.IsInf(v, 0):
				// A counter reading is always finite when it holds (see
				// Holds), so an infinite or NaN bound means nothing.
				return Expectation{}, fmt.Errorf("expectation %q: %q is not a finite number", s, num)
			}
			return Expectation{Op: op, Value: v}, nil
		}
	}
	return Expectation{}, fmt.Errorf("expectation %q: want OP N with OP one of == != > >= < <=", s)
}

// Holds reports whether v satisfies the expectation. A NaN or infinite
// reading never does, whatever the operator: it is a broken counter, not a
// value ("!= 0" must not hold for NaN).
func (e Expectation) Holds(v float64) bool {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return false
	}
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

// HoldsText reports whether a text reading satisfies the expectation: a
// text expectation compares the text; a numeric one, the text's number
// (a reading that is no number meets no numeric expectation).
func (e Expectation) HoldsText(text string, v float64) bool {
	if !e.IsText {
		if _, ok := TextNumber(text); !ok {
			return false
		}
		return e.Holds(v)
	}
	switch e.Op {
	case "==":
		return text == e.Text
	case "!=":
		return text != e.Text
	}
	return false
}

// TextNumber is the number a text reading stands for, as the engine reads
// it (Value of a text counter's reading): ok is false when it is none.
func TextNumber(text string) (float64, bool) {
	v, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
	return v, err == nil
}

func (e Expectation) String() string {
	if e.IsText {
		return e.Op + " " + e.Text
	}
	return e.Op + " " + strconv.FormatFloat(e.Value, 'g', -1, 64)
}
