package schema

// ImpossibleValue is a number an engine reported that cannot be true: not
// finite (NaN, ±Inf), negative, past MaxPlausible, or more tokens than
// the request allowed.
// Such a value is recorded as absent, with this saying what it was and
// why, never stored as a number.
type ImpossibleValue struct {
	// Source names where the value came from: "timings.predicted_n",
	// "counter spec_accepted", "metric decode_tok_s".
	Source string `json:"source"`
	// Value is the value as text ("NaN", "1e+300"): JSON cannot carry
	// every float.
	Value string        `json:"value"`
	Why   ImpossibleWhy `json:"why"`
}

// ImpossibleWhy says why a value cannot be true.
type ImpossibleWhy string

const (
	NotFinite     ImpossibleWhy = "not-finite"
	Negative      ImpossibleWhy = "negative"
	OverMaxTokens ImpossibleWhy = "over-max-tokens"
	// Inconsistent: a rate whose count or time could not be true.
	Inconsistent ImpossibleWhy = "inconsistent"
	// TooLarge: a magnitude past MaxPlausible, which no engine measures
	// and whose square overflows the statistics (1e160 tokens per second
	// lost a campaign its record).
	TooLarge ImpossibleWhy = "too-large"
)

// MaxPlausible is the largest magnitude of a number an engine reports
// that can be true.
const MaxPlausible = 1e18
