package schema

// ArmClocks is an arm's decode rate on the two clocks that measure it,
// each defined the same way: the tokens generated after the first, over
// the time from the first token to the last. The client's clock runs from
// its first token event's arrival to its last (decode_tok_s, which the
// verdict uses); the engine's from its first token's sampling to its last
// (llama-server: (timings.predicted_n − 1) ÷ timings.predicted_ms, whose
// own predicted_per_second counts the first token too). Both are taken
// per measured request, so that each ratio compares one request with
// itself.
type ArmClocks struct {
	Arm string `json:"arm"`
	// ClientTokS and EngineTokS are the medians over the arm's measured
	// requests; Ratio the median of each request's client ÷ engine, with
	// its range over the requests.
	ClientTokS float64 `json:"client_tok_s"`
	EngineTokS float64 `json:"engine_tok_s"`
	Ratio      float64 `json:"ratio"`
	RatioMin   float64 `json:"ratio_min"`
	RatioMax   float64 `json:"ratio_max"`
	Requests   int     `json:"requests"`
	// LagMS is the median over the requests of the client's time to first
	// token less the engine's prompt time: how long after the engine's
	// clock started (its first token sampled) the client's did (that
	// token's event arrived), the request's way in included. Work the
	// engine does between sampling its first token and sending it counts
	// on its clock and not on the client's.
	LagMS float64 `json:"first_token_lag_ms"`
}

// ClocksBound is how far an arm's two clocks may disagree (the median
// ratio outside [1/(1+ClocksBound), 1+ClocksBound]) before the record
// flags it. On a CPU host and on an H200, an arm whose engine does the same
// work on both clocks agrees within 1.5%.
const ClocksBound = 0.05

// ClocksDisagree (a flag): arm's client and engine decode rates differ by
// more than Bound (Ratio, the median of client ÷ engine over its
// requests); LagMS and BaselineLagMS are its first-token lag and the
// baseline's (ArmClocks.LagMS), which say whether the difference lies
// before the first token reached the client.
type ClocksDisagree struct {
	Arm           string  `json:"arm"`
	Ratio         float64 `json:"ratio" v2:"value"`
	Bound         float64 `json:"bound" v2:"limit"`
	LagMS         float64 `json:"first_token_lag_ms" v2:"lo"`
	Baseline      string  `json:"baseline" v2:"other"`
	BaselineLagMS float64 `json:"baseline_first_token_lag_ms" v2:"hi"`
}

func (ClocksDisagree) Code() Code { return "clocks-disagree" }
