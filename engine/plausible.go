package engine

import (
	"math"
	"sort"
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

// Impossible checks one engine-reported number: it must be finite, at
// most schema.MaxPlausible in magnitude, and, unless signed, not
// negative. It returns why the value cannot be true, ok false when it
// can.
func Impossible(source string, v float64, signed bool) (schema.ImpossibleValue, bool) {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return schema.ImpossibleValue{Source: source, Value: FormatValue(v), Why: schema.NotFinite}, true
	case v < 0 && !signed:
		return schema.ImpossibleValue{Source: source, Value: FormatValue(v), Why: schema.Negative}, true
	case math.Abs(v) > schema.MaxPlausible:
		return schema.ImpossibleValue{Source: source, Value: FormatValue(v), Why: schema.TooLarge}, true
	}
	return schema.ImpossibleValue{}, false
}

// ImpossibleTokens checks a token total against what the request allows.
// A finite total past the limit says over-max-tokens, however large.
func ImpossibleTokens(source string, v float64, maxTokens int) (schema.ImpossibleValue, bool) {
	if !math.IsInf(v, 0) && v > TokenLimit(maxTokens) {
		return schema.ImpossibleValue{Source: source, Value: FormatValue(v), Why: schema.OverMaxTokens}, true
	}
	return Impossible(source, v, false)
}

// FormatValue writes a number for a note: NaN and ±Inf by name.
func FormatValue(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// tokenCount takes the number of generated tokens from the engine's own
// totals first: counting stream events undercounts when the engine merges
// tokens (llama-server does, at multi-byte characters). A total that
// cannot be true (ImpossibleTokens) is passed over and noted.
func tokenCount(r *Response, maxTokens int) (int, string) {
	if n, ok := TimingsTokens(r.Timings); ok {
		return n, "timings.predicted_n" // checked by plausibleTimings
	}
	if v, ok := r.Final["tokens_predicted"].(float64); ok && v != 0 && r.plausibleTokens("tokens_predicted", v, maxTokens) {
		return int(v), "tokens_predicted"
	}
	if u, ok := r.Final["usage"].(map[string]any); ok {
		if v, ok := u["completion_tokens"].(float64); ok && v != 0 && r.plausibleTokens("usage.completion_tokens", v, maxTokens) {
			return int(v), "usage.completion_tokens"
		}
	}
	if len(r.TokenIDs) > 0 {
		return len(r.TokenIDs), "streamed token ids"
	}
	return r.StreamedTokens, schema.TokensFromEvents
}

// plausibleTokens reports whether a token total can be true, noting it
// in r.Impossible when it cannot.
func (r *Response) plausibleTokens(source string, v float64, maxTokens int) bool {
	if iv, bad := ImpossibleTokens(source, v, maxTokens); bad {
		r.Impossible = append(r.Impossible, iv)
		return false
	}
	return true
}

// plausibleTimings keeps the timing fields that can be true: finite, not
// negative, and a predicted_n within what the request allows. A rate
// whose count or time could not be true cannot be either. (Times are not
// checked against the request's wall time, nor rates against their count
// over their time: llama-server's own rate counts one token fewer than
// predicted_n, and a replayed reply arrives faster than it was made.)
func (r *Response) plausibleTimings(t map[string]float64, maxTokens int) map[string]float64 {
	bad := map[string]schema.ImpossibleValue{}
	for _, k := range sortedKeys(t) {
		v := t[k]
		iv, no := Impossible("timings."+k, v, false)
		if k == "predicted_n" {
			iv, no = ImpossibleTokens("timings."+k, v, maxTokens)
		}
		if no {
			bad[k] = iv
		}
	}
	for _, rate := range []struct{ rate, n, ms string }{
		{"predicted_per_second", "predicted_n", "predicted_ms"},
		{"prompt_per_second", "prompt_n", "prompt_ms"},
	} {
		v, ok := t[rate.rate]
		_, done := bad[rate.rate]
		_, badN := bad[rate.n]
		_, badMS := bad[rate.ms]
		if ok && !done && (badN || badMS) {
			bad[rate.rate] = schema.ImpossibleValue{Source: "timings." + rate.rate, Value: FormatValue(v), Why: schema.Inconsistent}
		}
	}
	for _, k := range sortedKeys(t) {
		if iv, ok := bad[k]; ok {
			r.Impossible = append(r.Impossible, iv)
			delete(t, k)
		}
	}
	return t
}

func sortedKeys(m map[string]float64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
