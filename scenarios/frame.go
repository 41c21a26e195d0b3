package scenarios

import "github.com/decodebench/decodebench/schema"

// Frame writes into rec the fields of a record's data block that the
// scenario alone decides: its names, title and issue, the baseline and
// primary metric, the request, the arms' names and controls, the counters
// and their expectations, what it does not measure, and the method's
// schedule, statistics and gates. The campaign writes a record's frame
// with it, and check writes the frame of the record's stored scenario
// over a copy of the record to find a data block edited apart from the
// scenario it stores (a forged primary metric, baseline or threshold
// passes the scenario's hash, but not this). Every slice is new; the
// arms' commands and environments, which this machine's variables and
// redaction decide, are left empty.
func (s *Scenario) Frame(rec *schema.Record) {
	p := s.Policy
	rec.Feature, rec.Title, rec.Issue = s.Feature, s.Title, s.Issue
	sc := &rec.Scenario
	sc.Baseline, sc.Primary, sc.AllowUnverified = s.Baseline, s.Metrics.Primary, s.AllowUnverified
	r := s.Engine.Request
	sc.Request = schema.RequestInfo{Endpoint: r.Endpoint, Prompt: r.Prompt, MaxTokens: r.MaxTokens,
		Temperature: r.Temperature, Seed: r.Seed, IgnoreEOS: r.IgnoreEOS}
	sc.Unmeasured = nil
	for _, n := range s.Unmeasured {
		sc.Unmeasured = append(sc.Unmeasured, string(n))
	}
	sc.Arms = nil
	m := &rec.Method
	m.PrefixCache = nil
	for _, a := range s.Arms {
		sc.Arms = append(sc.Arms, schema.ArmInfo{Name: a.Name, Control: a.Control})
		m.PrefixCache = append(m.PrefixCache, schema.ArmPrefixCache{Arm: a.Name, State: p.PrefixCache.State, Why: string(p.PrefixCache.Why)})
	}
	rec.Counters = nil
	for i, c := range s.Counters {
		cs := schema.CounterSpec{Name: c.Name, Kind: p.Counters[i].Kind, Expr: p.Counters[i].Expr, Expect: c.Expect}
		if p.Counters[i].Phase == schema.PhaseStartup {
			cs.Phase = schema.PhaseStartup // a window counter's record is as before
		}
		rec.Counters = append(rec.Counters, cs)
	}
	m.EngineKind = ""
	if s.Engine.IsCommand() {
		m.EngineKind = string(KindCommand)
	}
	m.Rounds, m.Warmup, m.Requests, m.Order, m.Seed = s.Schedule.Rounds.Min, s.Schedule.Warmup, p.Schedule.Requests, p.Schedule.Order, s.Schedule.Seed
	m.Cooldown, m.OnFailure, m.Outliers = s.Schedule.Cooldown.String(), p.Failure, p.Outliers
	m.Confidence, m.Alpha, m.MinEffect, m.Resamples, m.PoolControl = p.Stats.Confidence, p.Stats.Alpha, p.Stats.MinEffect, p.Stats.Resamples, p.Stats.PoolControl
	m.MaxSpread, m.MaxContended, m.ContendedCPU, m.MaxDrift = p.Gates.MaxSpread, p.Gates.MaxContended, p.Gates.ContendedCPU, p.Gates.MaxDrift
	m.MaxTime = ""
	if b := s.Schedule.Rounds.MaxTime.Duration; b > 0 {
		m.MaxTime = b.String()
	}
}
