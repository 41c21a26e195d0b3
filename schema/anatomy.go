package schema

// ServedRequest is one request an engine start served (a warmup or a
// measured one), as the run records it: the figures the client measured
// for it alone. A run's Metrics hold the start's value; its Requests keep
// every request.
type ServedRequest struct {
	Kind RequestKind `json:"kind"`
	// Metrics are the client's measurements of this request (time to
	// first token, wall time, decode and end-to-end rates, and the stream
	// metrics), without the window's counters, extras or energy.
	Metrics map[string]float64 `json:"metrics,omitempty"`
	Tokens  int                `json:"tokens,omitempty"`
	// Prefix is the distinct prefix put before the prompt
	// (PrefixCacheDistinct); empty otherwise.
	Prefix string `json:"prefix,omitempty"`
	// OutputSHA256 is the sha256 of a measured request's generated text.
	OutputSHA256 string `json:"output_sha256,omitempty"`
	// Output is the generated text of a measured request after the
	// start's first (whose text is the run's Output), kept so that output
	// identity compares every measured request.
	Output string `json:"output,omitempty"`
	// TokenIDs are that request's generated token ids when all are known:
	// its stream's, or the start's token replay's where it generated the
	// same text; nil otherwise, and in runs from before.
	TokenIDs []int `json:"token_ids,omitempty"`
	// EngineTimings are the engine's own timings of this request
	// (llama-server's timings object); absent in records from before,
	// which kept only the run's first measured request's (Run).
	EngineTimings map[string]float64 `json:"engine_timings,omitempty"`
	// Whole marks a start's last warmup sent whole, not streamed, for the
	// token ids the identity check needs (harness/replay.go): its Metrics
	// hold its wall time only, and the noise anatomy leaves it out.
	Whole bool `json:"whole,omitempty"`
}

// WholeWarmupMin is the fewest requests a start serves, warmups counted,
// for its last warmup to go whole for the identity check's token ids
// (harness/warmupids.go): two besides it, so that the noise anatomy,
// which leaves it out, still sees a start's requests vary. A start with
// fewer pays a token replay after its window instead.
const WholeWarmupMin = 3

// RequestKind is what a served request was for.
type RequestKind string

// Request kinds.
const (
	RequestWarmup   RequestKind = "warmup"
	RequestMeasured RequestKind = "measured"
)

// Anatomy is where the primary metric's noise comes from, estimated from
// the requests each engine start served (warmups and measured ones): its
// variance between starts and within a start, on log scale, and what a
// start and a request cost; and the number of measured requests per start
// that gives the narrowest interval per minute of campaign time.
type Anatomy struct {
	Metric string `json:"metric"`
	// Requests and Warmup are the schedule's measured requests and
	// warmups per start.
	Requests int `json:"requests"`
	Warmup   int `json:"warmup"`
	// LastWarmupLeftOut says the starts' last warmup is left out of the
	// figures: some start sent it whole for its token ids
	// (ServedRequest.Whole), so it has no streamed figures.
	LastWarmupLeftOut bool `json:"last_warmup_left_out,omitempty"`
	// Gap says why the figures could not be estimated; empty when they
	// were.
	Gap AnatomyGap `json:"gap,omitempty"`
	// Arms are each arm's figures; Pooled adds the arms' sums of squares
	// and degrees of freedom (the advice uses it).
	Arms   []AnatomyFigures `json:"arms,omitempty"`
	Pooled *AnatomyFigures  `json:"pooled,omitempty"`
	// Optimum is sqrt((StartS/RequestS)·(within/between)), the continuous
	// optimum of measured requests per start; 0 with Unbounded set when no
	// variance was seen between starts.
	Optimum   float64 `json:"optimum,omitempty"`
	Unbounded bool    `json:"unbounded,omitempty"`
	// Advice is the whole number of measured requests per start, 1 to
	// AdviceMax, that minimises the variance of an arm's mean times the
	// campaign time it takes: (between + within/k)·(StartS + k·RequestS),
	// plus a request's time for a token replay where k is below
	// ReplayBelow.
	//
	// ReplayBelow is set where the starts' last warmup went whole for the
	// token ids (LastWarmupLeftOut): below that many measured requests it
	// would not, and each start would pay a replay after its window.
	Advice      int `json:"advice,omitempty"`
	ReplayBelow int `json:"replay_below,omitempty"`
	AdviceMax   int `json:"advice_max,omitempty"`
	// WidthChange is how much narrower (negative) an interval of the same
	// campaign time would be at Advice than at Requests: the square root
	// of the two products, minus 1.
	WidthChange float64 `json:"width_change,omitempty"`
}

// AnatomyFigures are one arm's (or the pooled) noise and cost figures.
type AnatomyFigures struct {
	Arm string `json:"arm,omitempty"`
	// Starts counts the engine starts that served every request; PerStart
	// the requests each served.
	Starts   int `json:"starts"`
	PerStart int `json:"per_start"`
	// BetweenVar and WithinVar are variances of the metric's log:
	// between starts (the variance of a start's true mean) and within a
	// start (request to request, positions' means removed).
	BetweenVar float64 `json:"between_var"`
	WithinVar  float64 `json:"within_var"`
	// BetweenCV and WithinCV are the same as coefficients of variation, %.
	BetweenCV float64 `json:"between_cv"`
	WithinCV  float64 `json:"within_cv"`
	// ReadyS is the median time from the engine's launch to ready;
	// StartS the median fixed cost of a start: its whole time, warmups,
	// stop and the cooldown before it included, less its measured
	// requests; RequestS the median wall time of a measured request.
	ReadyS   float64 `json:"ready_s"`
	StartS   float64 `json:"start_s"`
	RequestS float64 `json:"request_s"`
}

// AnatomyGap says why the noise anatomy could not be estimated.
type AnatomyGap string

// Anatomy gaps.
const (
	// AnatomyOneRequest: every start served one request (no warmup, one
	// measured), so nothing varies within a start.
	AnatomyOneRequest AnatomyGap = "one-request-per-start"
	// AnatomyNotPerRequest: the primary metric is not measured per
	// request (a counter over the window, energy, an expression).
	AnatomyNotPerRequest AnatomyGap = "primary-not-per-request"
	// AnatomyFewStarts: fewer than three starts of some arm served every
	// request.
	AnatomyFewStarts AnatomyGap = "too-few-starts"
	// AnatomyCommand: a command engine's run is one process, one request.
	AnatomyCommand AnatomyGap = "command-engine"
)
