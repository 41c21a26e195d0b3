package recorder

import (
	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// FromAnalysis converts an analysis into its persisted form.
func FromAnalysis(a analysis.Analysis, runs []schema.Run, p scenarios.Policy) schema.Analysis {
	out := schema.Analysis{
		Reasons: reasons(a.Reasons), Flags: reasons(a.Flags), Warnings: reasons(a.Warnings),
		Unmeasured: reasons(a.Unmeasured), ClientEngineRatio: a.ClientEngineRatio,
		FamilyAlpha: a.FamilyAlpha, FamilySize: a.FamilySize,
	}
	for i, m := range a.Marks {
		out.Marks = append(out.Marks, schema.Mark{Seq: runs[i].Seq, Outlier: m.Outlier, Dropped: m.Dropped, Contended: m.Contended, CounterOK: m.CounterOK})
	}
	for _, r := range a.Results {
		mr := schema.MetricResult{Metric: r.Metric, Unit: r.Unit, Primary: r.Primary, HigherIsBetter: r.HigherIsBetter}
		for _, x := range r.Arms {
			s := x.Summary
			ar := schema.ArmResult{Arm: x.Arm, N: s.N, Median: s.Median, MAD: s.MAD, Q1: s.Q1, Q3: s.Q3, Min: s.Min, Max: s.Max, Mean: s.Mean, StdDev: s.StdDev, CV: s.CV,
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
		av := schema.ArmVerdict{Arm: v.Arm, Control: v.Control, Comparison: comparison(v.Comparison), ControlArm: v.ControlArm, SeparatesFromNoise: v.SeparatesFromNoise,
			MDE: v.MDE, MDEAlpha: v.MDEAlpha}
		if v.VsControl != nil {
			c := comparison(*v.VsControl)
			av.VsControl = &c
		}
		out.ArmVerdicts = append(out.ArmVerdicts, av)
	}
	if id := a.Identity; id != nil {
		res := &schema.IdentityResult{Verdict: string(id.Verdict), Against: id.Against, OnMismatch: p.Exactness.OnMismatch.String(),
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

func comparison(c analysis.Comparison) schema.Comparison {
	return schema.Comparison{Ratio: c.Ratio, Lo: c.Lo, Hi: c.Hi, Confidence: c.Confidence, P: c.P, Significant: c.Significant,
		AdjustedP: c.AdjustedP, Disagreement: string(c.Disagreement), Paired: c.Paired, N1: c.N1, N2: c.N2}
}

func reasons(rs []analysis.Reason) []schema.Reason {
	var out []schema.Reason
	for _, r := range rs {
		out = append(out, schema.Reason{Code: string(r.Code), Arm: r.Arm, Other: r.Other, Counter: r.Counter, Metric: r.Metric, Run: r.Run, Round: r.Round,
			Attempt: r.Attempt, N: r.N, M: r.M, Value: r.Value, Limit: r.Limit, P: r.P, Lo: r.Lo, Hi: r.Hi, Text: r.Text})
	}
	return out
}

func identityArm(a analysis.IdentityArm) schema.IdentityArm {
	out := schema.IdentityArm{Arm: a.Arm, Verdict: string(a.Verdict), Runs: a.Runs, Diverging: a.Diverging, TokenIndex: -1, ByteOffset: -1, TokenA: -1, TokenB: -1,
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
func AnalysisInput(p scenarios.Policy, runs []schema.Run, m schema.Method) analysis.Input {
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
func Analyze(p scenarios.Policy, runs []schema.Run, m schema.Method) (schema.Analysis, schema.Verdict) {
	a := analysis.Analyze(AnalysisInput(p, runs, m))
	return FromAnalysis(a, runs, p), a.Verdict
}
