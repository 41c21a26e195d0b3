package schema

import "math"

// Analysis is what the analysis found, as the record stores it.
type Analysis struct {
	// Reasons decide the verdict; Flags are reported beside it without
	// changing it; Warnings qualify the results; Unmeasured is what the
	// campaign itself could not measure.
	Reasons Reasons `json:"reasons,omitempty"`
	Flags   Reasons `json:"flags,omitempty"`
	// AlsoFailed are the publishability gates that failed where the
	// verdict was decided before them (an INCOMPLETE or FAILED campaign's
	// contended or noisy runs): the record names them beside its verdict.
	// Only in SchemaV5 records.
	AlsoFailed        Reasons         `json:"also_failed,omitempty"`
	Warnings          Reasons         `json:"warnings,omitempty"`
	Results           []MetricResult  `json:"results,omitempty"`
	ArmVerdicts       []ArmVerdict    `json:"arm_verdicts,omitempty"`
	Identity          *IdentityResult `json:"identity,omitempty"`
	Unmeasured        Reasons         `json:"unmeasured"`
	ClientEngineRatio float64         `json:"client_engine_ratio,omitempty"`
	// Clocks are each arm's decode rate on the client's and the engine's
	// clock (clocks.go); absent in records from before, which kept the
	// engine's timings of one request a run.
	Clocks []ArmClocks `json:"clocks,omitempty"`
	// FamilyAlpha is the family-wise error rate of the primary verdicts
	// over FamilySize test arms (Holm).
	FamilyAlpha float64 `json:"family_alpha,omitempty"`
	FamilySize  int     `json:"family_size,omitempty"`
	// Sequential is the sequential rule's account (looks, alpha spent);
	// nil for a fixed schedule and under a rule that does not spend alpha
	// over looks.
	Sequential *Sequential `json:"sequential,omitempty"`
	// Anatomy is where the primary metric's noise comes from; nil in
	// records from before it was measured (Method.Requests 0).
	Anatomy *Anatomy `json:"anatomy,omitempty"`
	// Marks are per run, in runs.jsonl order.
	Marks []Mark `json:"marks"`
}

// Sequential is how a campaign with looks spent its error budget: at each
// look (after Looks[i] rounds) every comparison is judged at
// AlphaPerLook = FamilyAlpha/PlannedLooks (Bonferroni over the looks that
// the schedule allows, Holm over the arms within a look), so the chance of
// any false claim over every look and arm stays at most FamilyAlpha.
type Sequential struct {
	Every        int     `json:"every"`
	PlannedLooks int     `json:"planned_looks"`
	Looks        []int   `json:"looks"`
	AlphaPerLook float64 `json:"alpha_per_look"`
	// AlphaSpent is AlphaPerLook times the looks taken.
	AlphaSpent float64 `json:"alpha_spent"`
	// Decided is set when the last look decided every test arm.
	Decided bool `json:"decided,omitempty"`
	// Spending names the alpha-spending function of a rule that spends
	// alpha by the information reached (AlphaPerLook is then 0), and
	// Information the share of the planned information the last look
	// reached (rounds run over the most the schedule allows).
	Spending    string  `json:"spending,omitempty"`
	Information float64 `json:"information,omitempty"`
}

// Mark is what the analysis found about one run: its primary value an
// outlier (modified z-score), dropped from the statistics (outliers:
// drop), contended, and per counter expected of its arm whether the
// reading met the expectation.
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
	Arm string `json:"arm"`
	Summary
	// MedianLo and MedianHi bound the median at MedianConfidence, the level
	// actually achievable with the samples.
	MedianLo         float64 `json:"median_lo"`
	MedianHi         float64 `json:"median_hi"`
	MedianConfidence float64 `json:"median_confidence"`
	// Comparison is nil for the baseline.
	Comparison *Comparison `json:"comparison,omitempty"`
	// Outliers counts this metric's values flagged by modified z-score;
	// Dropped counts runs dropped from the statistics (outliers: drop).
	Outliers int `json:"outliers,omitempty"`
	Dropped  int `json:"dropped,omitempty"`
	// Drift is the relative change from the first to the last third of
	// the campaign, DriftRho its rank correlation with time. Under a rule
	// whose drift test is relative (analysis.RelativeDrift), Drift is the
	// arm's change over the campaign relative to the baseline's trend (the
	// baseline's own trend for the baseline), DriftP the t-test of that
	// relative trend, and DriftRho 0.
	Drift    float64 `json:"drift"`
	DriftRho float64 `json:"drift_rho"`
	DriftP   float64 `json:"drift_p,omitempty"`
}

// Summary describes one arm's samples of one metric.
type Summary struct {
	N      int     `json:"n"`
	Median float64 `json:"median"`
	// MAD is the raw median absolute deviation from the median (not scaled
	// by 1.4826).
	MAD    float64 `json:"mad"`
	Q1     float64 `json:"q1"`
	Q3     float64 `json:"q3"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	Mean   float64 `json:"mean"`
	StdDev float64 `json:"stddev"`
	// CV is the coefficient of variation, StdDev/Mean.
	CV float64 `json:"cv"`
}

// Spread is the interquartile range relative to the median, (Q3−Q1)/median:
// the dispersion measure the publishability gate uses, because unlike the
// CV it is not inflated by a single outlier.
func (s Summary) Spread() float64 {
	if s.Median == 0 {
		return 0
	}
	return (s.Q3 - s.Q1) / math.Abs(s.Median)
}

// Comparison is an arm's samples judged against the baseline's.
type Comparison struct {
	// Ratio is median(arm)/median(baseline), Lo and Hi its interval at
	// Confidence; all 0 when undefined.
	Ratio      float64 `json:"ratio"`
	Lo         float64 `json:"lo"`
	Hi         float64 `json:"hi"`
	Confidence float64 `json:"confidence"`
	// P is the two-sided Mann–Whitney U p-value.
	P float64 `json:"p"`
	// Significant: P (AdjustedP for the primary verdict of several arms)
	// < alpha, the interval excludes 1, and the change is at least
	// min_effect.
	Significant bool `json:"significant"`
	// AdjustedP is P adjusted by Holm's method over the family of test
	// arms; 0 when the family has one arm (no adjustment).
	AdjustedP float64 `json:"adjusted_p,omitempty"`
	// Disagreement says when the test and the interval disagree.
	Disagreement Disagreement `json:"disagreement,omitempty"`
	// Paired is set when the arms were compared round by round: Ratio is
	// then the median within-round ratio, P the signed-rank test's, and
	// N1 = N2 the number of rounds.
	Paired bool `json:"paired,omitempty"`
	// N1 and N2 are the baseline's and the arm's sample counts.
	N1 int `json:"n1"`
	N2 int `json:"n2"`
	// Trimmed counts the runs (of both arms) the robust regression left
	// out as stalled (for a comparison by round, the rounds); Robust is set
	// for a comparison by regression (analysis.LogRegression) or by round
	// (analysis.RoundBlocks).
	Trimmed int  `json:"trimmed,omitempty"`
	Robust  bool `json:"robust,omitempty"`
	// Blocks is the rounds compared, for a comparison by round.
	Blocks int `json:"blocks,omitempty"`
	// Level is the two-sided level the comparison was judged at, where the
	// rule gives each arm its own (a sequential look's boundary, Holm's
	// step): significant when P < Level, and the interval is at 1 − Level,
	// so the two agree.
	Level float64 `json:"level,omitempty"`
}

// Defined reports whether a ratio could be computed at all.
func (c Comparison) Defined() bool { return c.Ratio != 0 }

// HasInterval reports whether the ratio has an interval.
func (c Comparison) HasInterval() bool { return c.Lo != 0 || c.Hi != 0 }

// Disagreement says whether the U (or signed-rank) test and the ratio's
// interval tell the same story.
type Disagreement string

// Disagreements. When the two disagree the comparison is not significant,
// and the record says which side said what.
const (
	Agree        Disagreement = ""
	PWithoutCI   Disagreement = "p-without-interval" // p < alpha, but the interval includes no change
	CIWithoutP   Disagreement = "interval-without-p" // the interval excludes no change, but p ≥ alpha
	TooSmallDiff Disagreement = "below-min-effect"   // both agree, but the change is below min_effect
)

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
	// MDEDown is the minimum detectable decrease, as 1 − new/old
	// (under an MDE model with two directions; MDE is then the increase,
	// new/old − 1).
	MDEDown float64 `json:"mde_down,omitempty"`
	// EquivalenceMargin and Equivalent are a negative control's
	// equivalence test (analysis.EquivalentControl): Equivalent when the interval of
	// the control's ratio at 1 − 2·alpha lies within ±EquivalenceMargin
	// (two one-sided tests at alpha).
	EquivalenceMargin float64 `json:"equivalence_margin,omitempty"`
	Equivalent        bool    `json:"equivalent,omitempty"`
	// Pooled names the negative controls pooled with the baseline into
	// the reference this arm was compared with (stats.pool_control).
	Pooled []string `json:"pooled,omitempty"`
}

// IdentityResult is the output identity check.
type IdentityResult struct {
	Verdict    IdentityVerdict `json:"verdict"`
	Against    string          `json:"against"`
	OnMismatch MismatchMode    `json:"on_mismatch"`
	Baseline   IdentityArm     `json:"baseline"`
	Arms       []IdentityArm   `json:"arms"`
	Strip      []string        `json:"strip,omitempty"`
	// Stripped is what the strip patterns removed, the first
	// StrippedListed matches in the order of the runs; StrippedCount
	// counts them all when there are more (else it is 0, and Stripped
	// lists every one, as records written before it list them all).
	Stripped      []string `json:"stripped,omitempty"`
	StrippedCount int      `json:"stripped_count,omitempty"`
	Notes         Reasons  `json:"notes,omitempty"`
}

// StrippedListed is how many of the strip patterns' matches an identity
// result lists (Stripped): the record shows the first; a few more let a
// reader see whether they differ. An output of a million one-byte
// matches is counted, not listed a million times.
const StrippedListed = 8

// StrippedMatches is how many matches the strip patterns removed.
func (r *IdentityResult) StrippedMatches() int {
	return max(r.StrippedCount, len(r.Stripped))
}

// IdentityArm is one arm's identity verdict.
type IdentityArm struct {
	Arm             string          `json:"arm"`
	Verdict         IdentityVerdict `json:"verdict"`
	Runs            int             `json:"runs"`
	Diverging       int             `json:"diverging,omitempty"`
	RunA            int             `json:"run_a,omitempty"`
	RunB            int             `json:"run_b,omitempty"`
	TokenIndex      int             `json:"token_index"`
	ByteOffset      int             `json:"byte_offset"`
	TokenA          int             `json:"token_a"`
	TokenB          int             `json:"token_b"`
	DifferingTokens int             `json:"differing_tokens,omitempty"`
	DifferingBytes  int             `json:"differing_bytes,omitempty"`
	ExcerptA        string          `json:"excerpt_a,omitempty"`
	ExcerptB        string          `json:"excerpt_b,omitempty"`
	TokensCompared  bool            `json:"tokens_compared"`
	Error           string          `json:"error,omitempty"`
	// Diagnosis is the analysis of the divergence's diagnosis probe
	// (Method.Diagnosis); nil when none was made.
	Diagnosis *Diagnosis `json:"diagnosis,omitempty"`
}

// Identical reports whether the arm matched its reference.
func (a IdentityArm) Identical() bool {
	return a.Verdict == Identical || a.Verdict == SelfConsistent
}
