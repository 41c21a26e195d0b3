package recorder

import (
	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/scenarios"
)

// Analysis is the persisted form of analysis.Analysis.
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
	return a.Verdict == string(analysis.Identical) || a.Verdict == string(analysis.SelfConsistent)
}

// FromAnalysis converts an analysis into its persisted form.
func FromAnalysis(a analysis.Analysis, runs []Run, p scenarios.Policy) Analysis {
	out := Analysis{
		Reasons: reasons(a.Reasons), Flags: reasons(a.Flags), Warnings: reasons(a.Warnings),
		Unmeasured: reasons(a.Unmeasured), ClientEngineRatio: a.ClientEngineRatio,
		FamilyAlpha: a.FamilyAlpha, FamilySize: a.FamilySize,
	}
	for i, m := range a.Marks {
		out.Marks = append(out.Marks, Mark{Seq: runs[i].Seq, Outlier: m.Outlier, Dropped: m.Dropped, Contended: m.Contended, CounterOK: m.CounterOK})
	}
	for _, r := range a.Results {
		mr := MetricResult{Metric: r.Metric, Unit: r.Unit, Primary: r.Primary, HigherIsBetter: r.HigherIsBetter}
		for _, x := range r.Arms {
			s := x.Summary
			ar := ArmResult{Arm: x.Arm, N: s.N, Median: s.Median, MAD: s.MAD, Q1: s.Q1, Q3: s.Q3, Min: s.Min, Max: s.Max, Mean: s.Mean, StdDev: s.StdDev, CV: s.CV,
				MedianLo: x.MedianLo, MedianHi: x.MedianHi, MedianConfidence: x.MedianConfidence,
				Outliers: x.Outliers, Dropped: x.Dropped, Drift: x.Drift, DriftRho: x.DriftRho}
			if x.Comparison != nil {
				c := comparison(*x.Comparison)
				ar.Comparison = &c
			}
			mr.Arms = append(mr.Arms, ar)
		}
		out.Results = append(out.Results, mr)
	}
	for _, v := range a.ArmVerdicts {
		av := ArmVerdict{Arm: v.Arm, Control: v.Control, Comparison: comparison(v.Comparison), ControlArm: v.ControlArm, SeparatesFromNoise: v.SeparatesFromNoise,
			MDE: v.MDE, MDEAlpha: v.MDEAlpha}
		if v.VsControl != nil {
			c := comparison(*v.VsControl)
			av.VsControl = &c
		}
		out.ArmVerdicts = append(out.ArmVerdicts, av)
	}
	if id := a.Identity; id != nil {
		res := &IdentityResult{Verdict: string(id.Verdict), Against: id.Against, OnMismatch: p.Exactness.OnMismatch.String(),
			Baseline: identityArm(id.Baseline), Stripped: id.Stripped, Notes: reasons(id.Notes)}
		for _, re := range p.Exactness.Strip {
			res.Strip = append(res.Strip, re.String())
		}
		for _, x := range id.Arms {
			res.Arms = append(res.Arms, identityArm(x))
		}
		out.Identity = res
	}
	return out
}

func comparison(c analysis.Comparison) Comparison {
	return Comparison{Ratio: c.Ratio, Lo: c.Lo, Hi: c.Hi, Confidence: c.Confidence, P: c.P, Significant: c.Significant,
		AdjustedP: c.AdjustedP, Disagreement: string(c.Disagreement), Paired: c.Paired, N1: c.N1, N2: c.N2}
}

func reasons(rs []analysis.Reason) []Reason {
	var out []Reason
	for _, r := range rs {
		out = append(out, Reason{Code: string(r.Code), Arm: r.Arm, Other: r.Other, Counter: r.Counter, Metric: r.Metric, Run: r.Run, Round: r.Round,
			Attempt: r.Attempt, N: r.N, M: r.M, Value: r.Value, Limit: r.Limit, P: r.P, Lo: r.Lo, Hi: r.Hi, Text: r.Text})
	}
	return out
}

func identityArm(a analysis.IdentityArm) IdentityArm {
	out := IdentityArm{Arm: a.Arm, Verdict: string(a.Verdict), Runs: a.Runs, Diverging: a.Diverging, TokenIndex: -1, ByteOffset: -1, TokenA: -1, TokenB: -1,
		TokensCompared: a.TokensCompared, Error: a.Error}
	if a.Diverging > 0 {
		d := a.First
		out.RunA, out.RunB = a.RunA, a.RunB
		out.TokenIndex, out.ByteOffset, out.TokenA, out.TokenB = d.TokenIndex, d.ByteOffset, d.TokenA, d.TokenB
		out.TokensCompared = d.TokensCompared
		out.DifferingBytes, out.DifferingTokens = d.DifferingBytes, d.DifferingTokens
		out.ExcerptA, out.ExcerptB = d.ExcerptA, d.ExcerptB
		if d.ByteOffset < 0 && d.ReasoningByteOffset >= 0 {
			out.ExcerptA, out.ExcerptB = "reasoning: "+d.ReasoningExcerptA, "reasoning: "+d.ReasoningExcerptB
		}
	}
	return out
}

// AnalysisInput turns stored runs into the analysis' input.
func AnalysisInput(p scenarios.Policy, runs []Run, m Method) analysis.Input {
	in := analysis.Input{Policy: p, Campaign: analysis.Campaign{Planned: len(m.Planned), Started: m.Started, Interrupted: m.Interrupted}}
	for _, r := range runs {
		ar := analysis.Run{Seq: r.Seq, Round: r.Round, Attempt: r.Attempt, Arm: r.Arm, Start: r.Start, Error: r.Error, Metrics: r.Metrics,
			EventCountedTokens: r.TokenSource == engine.TokensFromEvents,
			EngineRate:         r.EngineTimings["predicted_per_second"],
			Output:             r.Output, Reasoning: r.Reasoning, TokenIDs: r.TokenIDs, Declines: r.Declines}
		if r.Contention != nil {
			ar.Contention, ar.HasContention = r.Contention.Others, true
		}
		hostInput(&ar, r)
		if len(r.Counters) > 0 {
			ar.Counters = map[string]analysis.Reading{}
			for k, c := range r.Counters {
				ar.Counters[k] = analysis.Reading{Value: c.Value, Absent: c.Absent}
			}
		}
		in.Runs = append(in.Runs, ar)
	}
	return in
}

// Analyze derives the analysis and verdict of runs under policy p.
func Analyze(p scenarios.Policy, runs []Run, m Method) (Analysis, Verdict) {
	a := analysis.Analyze(AnalysisInput(p, runs, m))
	return FromAnalysis(a, runs, p), a.Verdict
}
