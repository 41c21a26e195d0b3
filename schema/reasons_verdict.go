package schema

// The reasons that decide a verdict, and the flags reported beside it.

// CounterFailed: a run's counter reading missed its arm's expectation.
type CounterFailed struct {
	Run      int     `json:"run"`
	Round    int     `json:"round"`
	Arm      string  `json:"arm"`
	Counter  string  `json:"counter"`
	Value    float64 `json:"value"`
	Expected string  `json:"expected" v2:"text"`
	// Text is a text source's reading (props, version).
	Text string `json:"reading,omitempty" v2:"-"`
	// Stream is the concurrent stream (1-based) whose reply the json
	// counter was read from, where it is not the run's first.
	Stream int `json:"stream,omitempty" v2:"-"`
}

// StreamsSerialised: a run's concurrent streams never all decoded at
// once: the last stream's first token (LatestFirstMs, since the release)
// came after the first stream to finish had its last one (EarliestLastMs).
// The engine served them one after another (too few slots), so their
// rates are not concurrent rates.
type StreamsSerialised struct {
	Run            int     `json:"run"`
	Round          int     `json:"round"`
	Arm            string  `json:"arm"`
	Streams        int     `json:"streams" v2:"n"`
	LatestFirstMs  float64 `json:"latest_first_ms" v2:"value"`
	EarliestLastMs float64 `json:"earliest_last_ms" v2:"limit"`
}

// Declined: the engine declined the feature under test in a run; First is
// the first of Lines matching log lines.
type Declined struct {
	Run   int    `json:"run"`
	Round int    `json:"round"`
	Arm   string `json:"arm"`
	Lines int    `json:"lines" v2:"n"`
	First string `json:"first" v2:"text"`
}

// SourceAbsent: a counter's source (a metric name, JSON path or log
// pattern, of Kind) was absent in all Runs of every arm.
type SourceAbsent struct {
	Counter string `json:"counter"`
	Kind    string `json:"kind" v2:"other"`
	Source  string `json:"source" v2:"text"`
	Runs    int    `json:"runs" v2:"n"`
}

// ControlDiffers: the negative control Arm differs from the baseline on
// Metric (Ratio, its interval Lo–Hi, P) at Alpha.
type ControlDiffers struct {
	Arm      string  `json:"arm"`
	Baseline string  `json:"baseline" v2:"other"`
	Metric   string  `json:"metric"`
	Ratio    float64 `json:"ratio" v2:"value"`
	Lo       float64 `json:"lo"`
	Hi       float64 `json:"hi"`
	P        float64 `json:"p"`
	Alpha    float64 `json:"alpha" v2:"limit"`
}

// RunFailed: a run failed; Error is its error's first line.
type RunFailed struct {
	Run     int    `json:"run"`
	Round   int    `json:"round"`
	Arm     string `json:"arm"`
	Attempt int    `json:"attempt"`
	Error   string `json:"error" v2:"text"`
}

// Divergence is where Arm first diverged from Against: TokenIndex (-1 when
// tokens were not compared), ByteOffset, in Diverging of Runs runs.
type Divergence struct {
	Arm        string `json:"arm"`
	Against    string `json:"against" v2:"other"`
	TokenIndex int    `json:"token_index" v2:"run"`
	ByteOffset int    `json:"byte_offset" v2:"n"`
	Diverging  int    `json:"diverging" v2:"m"`
	Runs       int    `json:"runs" v2:"round"`
}

// IdentityMismatch: an arm's output diverged under on_mismatch: fail.
type IdentityMismatch struct{ Divergence }

// IdentityBroken: an arm's output diverged under on_mismatch: report.
type IdentityBroken struct{ Divergence }

// IdentityUndecided: the identity check could not decide; its notes say why.
type IdentityUndecided struct{}

// Interrupted: a signal stopped the campaign after Finished of Planned runs.
type Interrupted struct {
	Finished int `json:"finished" v2:"n"`
	Planned  int `json:"planned" v2:"m"`
}

// ThinArm: an arm has fewer than two successful runs.
type ThinArm struct {
	Arm  string `json:"arm"`
	Runs int    `json:"runs" v2:"n"`
}

// TooNoisy: an arm's spread of Metric is above Limit.
type TooNoisy struct {
	Arm    string  `json:"arm"`
	Metric string  `json:"metric"`
	Spread float64 `json:"spread" v2:"value"`
	Limit  float64 `json:"limit"`
}

// TooFewRuns: under the robust rule the baseline has N1 and the arm N2
// finished runs, fewer than Min for one of them: with so few, a stalled
// run cannot be told from a change, and the regression's interval rests
// on a degree of freedom or two.
type TooFewRuns struct {
	Arm string `json:"arm"`
	N1  int    `json:"n1" v2:"n"`
	N2  int    `json:"n2" v2:"m"`
	Min int    `json:"min" v2:"round"`
}

// NoComparison: Arm's primary Metric could not be compared with its
// reference although both have finished runs (values of 0 or less, where
// a ratio needs positive ones): a verdict with no comparison decides
// nothing.
type NoComparison struct {
	Arm    string `json:"arm"`
	Metric string `json:"metric"`
}

// TooFewSamples: with N1 and N2 samples (rounds when Paired) the test
// cannot reach p < Alpha; SmallestP is the smallest it can.
type TooFewSamples struct {
	Arm       string  `json:"arm"`
	N1        int     `json:"n1" v2:"n"`
	N2        int     `json:"n2" v2:"m"`
	SmallestP float64 `json:"smallest_p" v2:"value"`
	Alpha     float64 `json:"alpha" v2:"limit"`
	Paired    bool    `json:"paired" v2:"text,paired"`
}

// Contended counts the runs whose measured window other processes used
// more than ContendedCPU of the CPU in, of the Judged runs.
type Contended struct {
	Runs         int     `json:"runs" v2:"n"`
	Judged       int     `json:"judged" v2:"m"`
	ContendedCPU float64 `json:"contended_cpu" v2:"value"`
	MaxContended float64 `json:"max_contended" v2:"limit"`
}

// ContendedHost: more runs were contended than MaxContended allows.
type ContendedHost struct{ Contended }

// Contention (a flag): some runs were contended, within the limit.
type Contention struct{ Contended }

// Drift (a flag): an arm drifted by Change over the campaign, with rank
// correlation Rho with time.
type Drift struct {
	Arm    string  `json:"arm"`
	Change float64 `json:"change" v2:"value"`
	Rho    float64 `json:"rho" v2:"limit"`
}

// RelativeDrift (a flag, analysis.RelativeDrift): an arm's trend differs from the
// baseline's by Change over the campaign, with t-test p-value P below
// Alpha: a drift of that arm alone (heat it builds, a clock it moves),
// which interleaving does not cancel.
type RelativeDrift struct {
	Arm      string  `json:"arm"`
	Baseline string  `json:"baseline" v2:"other"`
	Change   float64 `json:"change" v2:"value"`
	P        float64 `json:"p"`
	Alpha    float64 `json:"alpha" v2:"limit"`
	// Start and End are the arm's change against the baseline at the
	// campaign's start and end (new/old − 1), where the rule states them:
	// the average alone hides an arm that ends slower than it began.
	Start float64 `json:"start,omitempty" v2:"-"`
	End   float64 `json:"end,omitempty" v2:"-"`
}

func (RelativeDrift) Code() Code { return "relative-drift" }

// TooManyStalls: more than a quarter of the rounds of Arm's comparison
// with the baseline (Far of Rounds) are far out, so stalls cannot be told
// from the arms' own levels (an arm whose median is itself stalled): the
// comparison decides nothing.
type TooManyStalls struct {
	Arm    string `json:"arm"`
	Far    int    `json:"far" v2:"-"`
	Rounds int    `json:"rounds" v2:"-"`
}

func (TooManyStalls) Code() Code { return "too-many-stalls" }

func (CounterFailed) Code() Code     { return "counter-failed" }
func (StreamsSerialised) Code() Code { return "streams-serialised" }
func (Declined) Code() Code          { return "declined" }
func (SourceAbsent) Code() Code      { return "counter-source-absent" }
func (ControlDiffers) Code() Code    { return "control-differs" }
func (RunFailed) Code() Code         { return "run-failed" }
func (IdentityMismatch) Code() Code  { return "identity-mismatch" }
func (IdentityBroken) Code() Code    { return "identity-broken" }
func (IdentityUndecided) Code() Code { return "identity-undecidable" }
func (Interrupted) Code() Code       { return "interrupted" }
func (ThinArm) Code() Code           { return "thin-arm" }
func (TooNoisy) Code() Code          { return "too-noisy" }
func (TooFewRuns) Code() Code        { return "too-few-runs" }
func (TooFewSamples) Code() Code     { return "too-few-samples" }
func (NoComparison) Code() Code      { return "no-comparison" }
func (ContendedHost) Code() Code     { return "contended-host" }
func (Contention) Code() Code        { return "contention" }
func (Drift) Code() Code             { return "drift" }
