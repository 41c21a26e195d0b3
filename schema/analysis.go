package schema

// Analysis is what the analysis found, as the record stores it.
type Analysis struct {
	Reasons           []Reason        `json:"reasons,omitempty"`
	Flags             []Reason        `json:"flags,omitempty"`
	Warnings          []Reason        `json:"warnings,omitempty"`
	Results           []MetricResult  `json:"results,omitempty"`
	ArmVerdicts       []ArmVerdict    `json:"arm_verdicts,omitempty"`
	Identity          *IdentityResult `json:"identity,omitempty"`
	Unmeasured        []Reason        `json:"unmeasured"`
	ClientEngineRatio float64         `json:"client_engine_ratio,omitempty"`
	// FamilyAlpha is the family-wise error rate of the primary verdicts
	// over FamilySize test arms (Holm).
	FamilyAlpha float64 `json:"family_alpha,omitempty"`
	FamilySize  int     `json:"family_size,omitempty"`
	// Marks are per run, in runs.jsonl order.
	Marks []Mark `json:"marks"`
}

// Reason is a code with its parameters.
type Reason struct {
	Code    string  `json:"code"`
	Arm     string  `json:"arm,omitempty"`
	Other   string  `json:"other,omitempty"`
	Counter string  `json:"counter,omitempty"`
	Metric  string  `json:"metric,omitempty"`
	Run     int     `json:"run,omitempty"`
	Round   int     `json:"round,omitempty"`
	Attempt int     `json:"attempt,omitempty"`
	N       int     `json:"n,omitempty"`
	M       int     `json:"m,omitempty"`
	Value   float64 `json:"value,omitempty"`
	Limit   float64 `json:"limit,omitempty"`
	P       float64 `json:"p,omitempty"`
	Lo      float64 `json:"lo,omitempty"`
	Hi      float64 `json:"hi,omitempty"`
	Text    string  `json:"text,omitempty"`
}

// Mark is what the analysis found about one run.
type Mark struct {
	Seq       int             `json:"seq"`
	Outlier   bool            `json:"outlier,omitempty"`
	Dropped   bool            `json:"dropped,omitempty"`
	Contended bool            `json:"contended,omitempty"`
	CounterOK map[string]bool `json:"counter_ok,omitempty"`
}

// MetricResult is one metric's per-arm statistics.
type MetricResult struct {
	Metric         string      `json:"metric"`
	Unit           string      `json:"unit"`
	Primary        bool        `json:"primary"`
	HigherIsBetter bool        `json:"higher_is_better"`
	Arms           []ArmResult `json:"arms"`
}

// ArmResult is one arm's summary of one metric and its comparison with the
// baseline.
type ArmResult struct {
	Arm              string      `json:"arm"`
	N                int         `json:"n"`
	Median           float64     `json:"median"`
	MAD              float64     `json:"mad"`
	Q1               float64     `json:"q1"`
	Q3               float64     `json:"q3"`
	Min              float64     `json:"min"`
	Max              float64     `json:"max"`
	Mean             float64     `json:"mean"`
	StdDev           float64     `json:"stddev"`
	CV               float64     `json:"cv"`
	MedianLo         float64     `json:"median_lo"`
	MedianHi         float64     `json:"median_hi"`
	MedianConfidence float64     `json:"median_confidence"`
	Comparison       *Comparison `json:"comparison,omitempty"`
	Outliers         int         `json:"outliers,omitempty"`
	Dropped          int         `json:"dropped,omitempty"`
	Drift            float64     `json:"drift"`
	DriftRho         float64     `json:"drift_rho"`
}

// Spread is (Q3−Q1)/median.
func (a ArmResult) Spread() float64 {
	if a.Median == 0 {
		return 0
	}
	d := a.Median
	if d < 0 {
		d = -d
	}
	return (a.Q3 - a.Q1) / d
}

// Comparison is an arm judged against the baseline.
type Comparison struct {
	Ratio       float64 `json:"ratio"`
	Lo          float64 `json:"lo"`
	Hi          float64 `json:"hi"`
	Confidence  float64 `json:"confidence"`
	P           float64 `json:"p"`
	Significant bool    `json:"significant"`
	// AdjustedP is the Holm-adjusted p-value (0: not adjusted).
	AdjustedP float64 `json:"adjusted_p,omitempty"`
	// Disagreement is set when the test and the interval disagree.
	Disagreement string `json:"disagreement,omitempty"`
	// Paired: compared round by round (N1 = N2 = rounds).
	Paired bool `json:"paired,omitempty"`
	N1     int  `json:"n1"`
	N2     int  `json:"n2"`
}

// HasInterval reports whether the comparison has a ratio interval.
func (c Comparison) HasInterval() bool { return c.Lo != 0 || c.Hi != 0 }

// ArmVerdict is one arm's primary-metric verdict.
type ArmVerdict struct {
	Arm                string      `json:"arm"`
	Control            bool        `json:"control,omitempty"`
	Comparison         Comparison  `json:"comparison"`
	ControlArm         string      `json:"control_arm,omitempty"`
	VsControl          *Comparison `json:"vs_control,omitempty"`
	SeparatesFromNoise bool        `json:"separates_from_noise,omitempty"`
	// MDE is the minimum detectable effect at 80% power and level
	// MDEAlpha (0 when undefined).
	MDE      float64 `json:"mde,omitempty"`
	MDEAlpha float64 `json:"mde_alpha,omitempty"`
}

// IdentityResult is the output identity check.
type IdentityResult struct {
	Verdict    string        `json:"verdict"`
	Against    string        `json:"against"`
	OnMismatch string        `json:"on_mismatch"`
	Baseline   IdentityArm   `json:"baseline"`
	Arms       []IdentityArm `json:"arms"`
	Strip      []string      `json:"strip,omitempty"`
	Stripped   []string      `json:"stripped,omitempty"`
	Notes      []Reason      `json:"notes,omitempty"`
}

// IdentityArm is one arm's identity verdict.
type IdentityArm struct {
	Arm             string `json:"arm"`
	Verdict         string `json:"verdict"`
	Runs            int    `json:"runs"`
	Diverging       int    `json:"diverging,omitempty"`
	RunA            int    `json:"run_a,omitempty"`
	RunB            int    `json:"run_b,omitempty"`
	TokenIndex      int    `json:"token_index"`
	ByteOffset      int    `json:"byte_offset"`
	TokenA          int    `json:"token_a"`
	TokenB          int    `json:"token_b"`
	DifferingTokens int    `json:"differing_tokens,omitempty"`
	DifferingBytes  int    `json:"differing_bytes,omitempty"`
	ExcerptA        string `json:"excerpt_a,omitempty"`
	ExcerptB        string `json:"excerpt_b,omitempty"`
	TokensCompared  bool   `json:"tokens_compared"`
	Error           string `json:"error,omitempty"`
}

// Identical reports whether the arm matched its reference.
func (a IdentityArm) Identical() bool {
	return a.Verdict == string(Identical) || a.Verdict == string(SelfConsistent)
}
