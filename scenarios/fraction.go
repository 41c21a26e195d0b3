package scenarios

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/decodebench/decodebench/internal/pct"
	"gopkg.in/yaml.v3"
)

// Fraction is a proportion written either as a number (0.04) or a
// percentage ("4%"): thresholds read naturally either way.
type Fraction float64

func parseFraction(s string) (Fraction, error) {
	t := strings.TrimSpace(s)
	scale := 1.0
	if v, ok := strings.CutSuffix(t, "%"); ok {
		t, scale = strings.TrimSpace(v), 0.01
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || strings.ContainsAny(t, "xX_") {
		// ParseFloat reads Go's hexadecimal floats (0x1p-3) and digit
		// separators too: no scenario or flag means those.
		return 0, fmt.Errorf("%q is not a number or a percentage such as 4%%", s)
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		// A NaN passes every range check written as a comparison, and no
		// record can store it.
		return 0, fmt.Errorf("%q is not a finite number: give a number or a percentage such as 4%%", s)
	}
	return Fraction(f * scale), nil
}

func (f *Fraction) checkNode(n *yaml.Node) string {
	if n.Kind != yaml.ScalarNode {
		return "expected a number or a percentage such as 4%, got " + kindName(n)
	}
	if _, err := parseFraction(n.Value); err != nil {
		return err.Error()
	}
	return ""
}

// UnmarshalYAML reads 0.04 or "4%".
func (f *Fraction) UnmarshalYAML(n *yaml.Node) error {
	v, err := parseFraction(n.Value)
	if err != nil {
		return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: %v", n.Line, err)}}
	}
	*f = v
	return nil
}

// String writes the fraction as a percentage, to at most ten significant
// digits: 7% reads 7%, not the 7.000000000000001% of 0.07×100.
func (f Fraction) String() string {
	return pct.Rounded(float64(f))
}

// ParseFraction reads a proportion written as a number (0.03) or a
// percentage ("3%"), as the scenario's thresholds are, for command-line
// flags.
func ParseFraction(s string) (float64, error) {
	f, err := parseFraction(s)
	return float64(f), err
}
