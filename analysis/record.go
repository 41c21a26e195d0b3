package analysis

import (
	"slices"

	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// FromRecord is the analysis' input of a record's runs under policy p,
// its rule resolved from the record's method; an unknown rule is an
// error.
func FromRecord(p scenarios.Policy, runs []schema.Run, m schema.Method) (Input, error) {
	rule, err := RuleOf(m.Rule)
	if err != nil {
		return Input{}, err
	}
	return NewInput(p, rule, runs, m), nil
}

// NewInput is the analysis' input of stored runs under policy p and rule,
// with the campaign's facts from its method.
func NewInput(p scenarios.Policy, rule Rule, runs []schema.Run, m schema.Method) Input {
	in := Input{Policy: p, Campaign: Campaign{Planned: len(m.Planned), Started: m.Started, Interrupted: m.Interrupted, Rule: rule, Diagnosis: m.Diagnosis,
		Requests: m.Requests, Warmup: m.Warmup, Command: m.EngineKind != "", PlannedRounds: m.PlannedRounds, History: m.History}}
	for _, r := range runs {
		in.Runs = append(in.Runs, runOf(r))
	}
	return in
}

// Record derives the analysis and verdict of a record's runs under policy
// p, as a record of schema version (schema.Schema or schema.SchemaV2)
// has it.
func Record(p scenarios.Policy, runs []schema.Run, m schema.Method, version string) (schema.Analysis, schema.Verdict, error) {
	return record(p, runs, m, version, 0)
}

// Rederive is Record of a record already written, to compare with the
// analysis it stores (rec.Analysis): a record written before
// IdentityResult.StrippedCount lists every strip match however many
// there were, and is derived again listing as many as it stores (no
// more than its data block holds), so that it is compared whole.
func Rederive(p scenarios.Policy, rec *schema.Record) (schema.Analysis, schema.Verdict, error) {
	listed := 0
	if id := rec.Analysis.Identity; id != nil && id.StrippedCount == 0 && len(id.Stripped) > schema.StrippedListed {
		listed = len(id.Stripped)
	}
	return record(p, rec.Runs, rec.Method, rec.Schema, listed)
}

func record(p scenarios.Policy, runs []schema.Run, m schema.Method, version string, listed int) (schema.Analysis, schema.Verdict, error) {
	in, err := FromRecord(p, runs, m)
	if err != nil {
		return schema.Analysis{}, "", err
	}
	in.Campaign.V2 = version == schema.SchemaV2
	in.Campaign.StrippedListed = listed
	a := Analyze(in)
	return Stored(a.Analysis, version), a.Verdict, nil
}

// Stored is the analysis as a record of schema version version stores it:
// the versions before SchemaV5 have no AlsoFailed.
func Stored(a schema.Analysis, version string) schema.Analysis {
	if !schema.AnswerFirst(version) {
		a.AlsoFailed = nil
	}
	return a
}

// runOf is a stored run as the analysis reads it.
func runOf(r schema.Run) Run {
	ar := Run{Seq: r.Seq, Round: r.Round, Attempt: r.Attempt, Arm: r.Arm, Start: r.Start, Error: r.Error, LostCount: r.LostCount, Metrics: r.Metrics,
		EventCountedTokens: r.TokenSource == schema.TokensFromEvents,
		EngineRate:         r.EngineTimings["predicted_per_second"],
		Output:             r.Output, Reasoning: r.Reasoning, TokenIDs: r.TokenIDs, Declines: r.Declines,
		Served: r.Requests, ReadyS: r.ReadyS, Seconds: r.Seconds, CooldownS: r.CooldownS}
	ar.Metrics = schema.PerStart(r.Metrics, r.Requests)
	measured := 0
	for _, q := range r.Requests {
		if q.Kind == schema.RequestMeasured {
			if measured++; measured > 1 {
				ar.RequestOutputs = append(ar.RequestOutputs, q.Output)
				ar.RequestTokenIDs = append(ar.RequestTokenIDs, q.TokenIDs)
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
		ar.Counters = map[string]Reading{}
		for k, c := range r.Counters {
			ar.Counters[k] = Reading{Value: c.Value, Text: c.Text, Absent: c.Absent, Impossible: c.Impossible}
		}
	}
	return ar
}

// hostInput sets the analysis' host fields of a run: the machine warnings
// seen before or after it, and whether the quiet gate gave up before it.
func hostInput(ar *Run, r schema.Run) {
	var warnings [][]schema.HostWarning
	for _, c := range []*schema.HostConditions{r.ConditionsBefore, r.ConditionsAfter} {
		if c != nil {
			warnings = append(warnings, c.Warnings)
			if c.PowerMode != "" {
				ar.PowerModes = append(ar.PowerModes, c.PowerMode)
			}
		}
	}
	if r.GPUWindow != nil {
		warnings = append(warnings, r.GPUWindow.Warnings)
	}
	for _, ws := range warnings {
		for _, w := range ws {
			if hc := HostCondition(w.Code); !slices.Contains(ar.HostWarnings, hc) {
				ar.HostWarnings = append(ar.HostWarnings, hc)
			}
		}
	}
	if q := r.Quiet; q != nil && q.EndedBy == schema.QuietMaxWait {
		ar.QuietTimedOut = true
		ar.HostBusy = q.OnBusy == schema.BusyMark
	}
	ar.OutputFlood = r.EngineOutput != nil && r.EngineOutput.Flood
	ar.Impossible = len(r.Impossible) > 0
}
