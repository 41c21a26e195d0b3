package engine

import (
	"math"
	"strconv"

	"github.com/decodebench/decodebench/schema"
)

// TokenSlack is how many tokens beyond the request's max_tokens an
// engine's token total may report and still be believed: an engine may
// count a stop token or a last merged multi-byte token past the limit.
// A larger total cannot be true.
const TokenSlack = 16

// MaxPlausibleTokens bounds a token total where the request sets no
// max_tokens (a command engine without one).
const MaxPlausibleTokens = 1 << 24

// TokenLimit is the largest token total a request allowing maxTokens can
// produce.
func TokenLimit(maxTokens int) float64 {
	if maxTokens <= 0 {
		return MaxPlausibleTokens
	}
	return float64(maxTokens) + TokenSlack
}

// Impossible checks one engine-reported number: it must be finite, and,
// unless signed, not negative. It returns why the value cannot be true,
// ok false when it can.
func Impossible(source string, v float64, signed bool) (schema.ImpossibleValue, bool) {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return schema.ImpossibleValue{Source: source, Value: FormatValue(v), Why: schema.NotFinite}, true
	case v < 0 && !signed:
		return schema.ImpossibleValue{Source: source, Value: FormatValue(v), Why: schema.Negative}, true
	}
	return schema.ImpossibleValue{}, false
}

// ImpossibleTokens checks a token total against what the request allows.
func ImpossibleTokens(source string, v float64, maxTokens int) (schema.ImpossibleValue, bool) {
	if iv, bad := Impossible(source, v, false); bad {
		return iv, true
	}
	if v > TokenLimit(maxTokens) {
		return schema.ImpossibleValue{Source: source, Value: FormatValue(v), Why: schema.OverMaxTokens}, true
	}
	return schema.ImpossibleValue{}, false
}

// FormatValue writes a number for a note: NaN and ±Inf by name.
func FormatValue(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
