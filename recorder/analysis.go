package recorder

import (
	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// AnalysisInput turns stored runs into the analysis' input.
func AnalysisInput(p scenarios.Policy, runs []schema.Run, m schema.Method) analysis.Input {
	in := analysis.Input{Policy: p, Campaign: analysis.Campaign{Planned: len(m.Planned), Started: m.Started, Interrupted: m.Interrupted, Rule: m.Rule, Diagnosis: m.Diagnosis,
		Requests: m.Requests, Warmup: m.Warmup, Command: m.EngineKind != ""}}
	for _, r := range runs {
		ar := analysis.Run{Seq: r.Seq, Round: r.Round, Attempt: r.Attempt, Arm: r.Arm, Start: r.Start, Error: r.Error, Metrics: r.Metrics,
			EventCountedTokens: r.TokenSource == schema.TokensFromEvents,
			EngineRate:         r.EngineTimings["predicted_per_second"],
			Output:             r.Output, Reasoning: r.Reasoning, TokenIDs: r.TokenIDs, Declines: r.Declines,
			Served: r.Requests, ReadyS: r.ReadyS, Seconds: r.Seconds, CooldownS: r.CooldownS}
		ar.Metrics = analysis.PerStart(r.Metrics, r.Requests)
		measured := 0
		for _, q := range r.Requests {
			if q.Kind == schema.RequestMeasured {
				if measured++; measured > 1 {
					ar.RequestOutputs = append(ar.RequestOutputs, q.Output)
				}
			}
		}
		if r.Contention != nil {
			ar.Contention, ar.HasContention = r.Contention.Others, true
		}
		hostInput(&ar, r)
		if r.Energy != nil {
			ar.NoEnergy = r.Energy.Unavailable
		}
		if len(r.Streams) > 0 {
			ar.Streams = r.Streams
			for _, st := range r.Streams[1:] {
				ar.StreamOutputs = append(ar.StreamOutputs, schema.StreamText(r, st))
			}
		}
		if len(r.Counters) > 0 {
			ar.Counters = map[string]analysis.Reading{}
			for k, c := range r.Counters {
				ar.Counters[k] = analysis.Reading{Value: c.Value, Text: c.Text, Absent: c.Absent}
			}
		}
		in.Runs = append(in.Runs, ar)
	}
	return in
}

// Analyze derives the analysis and verdict of runs under policy p, as a
// record of schema version (schema.Schema or schema.SchemaV2) has it.
func Analyze(p scenarios.Policy, runs []schema.Run, m schema.Method, version string) (schema.Analysis, schema.Verdict) {
	in := AnalysisInput(p, runs, m)
	in.Campaign.V2 = version == schema.SchemaV2
	a := analysis.Analyze(in)
	return a.Analysis, a.Verdict
}
