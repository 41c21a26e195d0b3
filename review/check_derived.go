package review

import (
	"fmt"
	"maps"
	"strconv"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// checkDerived computes again, with the harness's own functions, every
// value of a finished run that the harness computes from other values the
// run stores, and reports each that runs.jsonl states otherwise: the
// hashes tie the file to the record, not its values to each other, and a
// derived value edited alone (then re-hashed, the analysis derived again
// and the Markdown rendered) moved a verdict while every input said
// otherwise. The values, each from what the run stores:
//   - the run's client metrics, its start's value from its measured
//     requests (schema.StartMetrics), wherever it has measured requests;
//   - its token count, the first measured request's, and its engine
//     timings, the first measured request's where its requests carry
//     theirs;
//   - energy_j and energy_j_per_tok, from its energy, its measured
//     requests and tokens (schema.EnergyMetrics); a GPU's joules are at
//     most its highest power over the window (energyBound);
//   - the scenario's expression metrics, evaluated on the run's other
//     stored values (scenarios.DeriveMetrics);
//   - a server engine's client figures, held to what they are made of
//     and to what the engine's own timings allow (rateMismatches), each
//     arm's decode rate on its median (decodeClocks);
//   - a server engine's json: metrics and counters whose field lies in
//     the reply's timings, which the run keeps (engine.StoredReply): the
//     reply they read is the last measured request's, whose timings the
//     run keeps where its requests carry theirs or it served one.
//
// A value whose inputs are not stored (a reply field other than the
// timings, a run of a record from before requests kept their timings) is
// taken as stored; its own evidence, where a log gives it, is read by
// checkEvidence.
func checkDerived(s *scenarios.Scenario, rec *schema.Record) []Problem {
	var out []string
	clocks := decodeClocks{}
	for _, r := range rec.Runs {
		if !r.OK() {
			continue
		}
		ms := derivedMismatches(s, rec, r)
		if !s.Engine.IsCommand() {
			rates, ratio, ok := rateMismatches(r)
			if ms = append(ms, rates...); ok {
				clocks.add(r, ratio)
			}
		}
		at := fmt.Sprintf("run %d (%s): ", r.Seq, termsafe.String(r.Arm))
		for _, m := range ms {
			out = append(out, at+m)
		}
	}
	out = append(clocks.problems(rec.Scenario.Arms), out...)
	var probs []Problem
	for i, m := range out {
		if i == maxEvidenceProblems {
			probs = append(probs, Problem{"Raw runs", fmt.Sprintf("and %d more value(s) of runs.jsonl that its other values give otherwise", len(out)-i)})
			break
		}
		probs = append(probs, Problem{"Raw runs", m})
	}
	return probs
}

// derivedMismatches are one run's derived values that its inputs give
// otherwise, each a sentence naming the stored value and the derived one.
func derivedMismatches(s *scenarios.Scenario, rec *schema.Record, r schema.Run) []string {
	var out []string
	metric := func(name, from string, v float64, ok bool) {
		got, has := r.Metrics[name]
		if has != ok || got != v {
			out = append(out, fmt.Sprintf("metrics.%s is %s; %s gives %s", termsafe.String(name), present(has, got), from, present(ok, v)))
		}
	}
	measured := schema.MeasuredCount(r.Requests)
	if measured > 0 {
		start := schema.StartMetrics(r.Requests)
		for _, m := range schema.Metrics {
			if m.Concurrent || m.Name == schema.EnergyJ || m.Name == schema.EnergyJPerTok {
				continue
			}
			v, ok := start[m.Name]
			metric(m.Name, "the mean of its measured requests", v, ok)
		}
		first := firstMeasured(r.Requests)
		if r.Tokens != first.Tokens {
			out = append(out, fmt.Sprintf("tokens is %d; its first measured request's is %d", r.Tokens, first.Tokens))
		}
		if perRequestTimings(r.Requests) && !maps.Equal(r.EngineTimings, first.EngineTimings) {
			out = append(out, "engine_timings are not its first measured request's, which the run's stand for")
		}
	}
	requests := measured
	if requests == 0 {
		requests = s.Policy.Schedule.Requests
	}
	energy := schema.Run{Energy: r.Energy, Tokens: r.Tokens, Metrics: map[string]float64{}}
	schema.EnergyMetrics(&energy, requests)
	for _, name := range []string{schema.EnergyJ, schema.EnergyJPerTok} {
		v, ok := energy.Metrics[name]
		metric(name, fmt.Sprintf("its energy over %d measured request(s) of %d tokens", requests, r.Tokens), v, ok)
	}
	if m := energyBound(r); m != "" {
		out = append(out, m)
	}
	inputs := maps.Clone(r.Metrics)
	for _, mp := range s.Policy.Metrics {
		if mp.Derived() {
			delete(inputs, mp.Name)
		}
	}
	keep := func(name string, v float64) bool { _, bad := engine.Impossible("metric "+name, v, true); return !bad }
	derived := scenarios.DeriveMetrics(s.Policy.Metrics, inputs, r.Tokens, rec.ModelBytes(r.Arm), keep)
	for _, mp := range s.Policy.Metrics {
		if mp.Derived() {
			v, ok := derived[mp.Name]
			metric(mp.Name, fmt.Sprintf("its expression %q", termsafe.String(mp.Extra.Expr)), v, ok)
		}
	}
	if s.Engine.IsCommand() {
		return out
	}
	if reply, ok := storedReply(r); ok {
		out = append(out, replyMismatches(s, r, reply)...)
	}
	return out
}

// energyBound holds a run's GPU energy to the power its GPUs drew at
// most: the harness integrates the power samples of the window
// (machine.GPUEnergy), the same samples whose highest power the run's
// gpu_window keeps, so the joules are at most each GPU's highest power
// over the whole window.
func energyBound(r schema.Run) string {
	e, w := r.Energy, r.GPUWindow
	if e == nil || w == nil || e.Source != schema.EnergyNvidiaSMI || e.Unavailable != "" {
		return ""
	}
	most := 0.0
	for _, g := range w.GPUs {
		if g.PowerMaxW != nil {
			most += *g.PowerMaxW * e.WindowS
		}
	}
	if e.Joules <= most*(1+1e-9) {
		return ""
	}
	return fmt.Sprintf("energy.joules is %s; its GPUs' highest power over its %s s window (gpu_window) gives at most %s", engine.FormatValue(e.Joules), engine.FormatValue(e.WindowS), approx(most))
}

// firstMeasured is a run's first measured request.
func firstMeasured(reqs []schema.ServedRequest) schema.ServedRequest {
	for _, q := range reqs {
		if q.Kind == schema.RequestMeasured {
			return q
		}
	}
	return schema.ServedRequest{}
}

// perRequestTimings reports whether a run's measured requests carry
// their own engine timings (records from before kept only the run's).
func perRequestTimings(reqs []schema.ServedRequest) bool {
	for _, q := range reqs {
		if q.Kind == schema.RequestMeasured && q.EngineTimings != nil {
			return true
		}
	}
	return false
}

// storedReply is the stored part of the reply a run's json: sources read
// (the last measured request's): that request's timings where the run's
// requests carry theirs, else the run's own where it served one measured
// request (its timings are that request's); false where neither is so.
func storedReply(r schema.Run) (map[string]any, bool) {
	var last *schema.ServedRequest
	for i, q := range r.Requests {
		if q.Kind == schema.RequestMeasured {
			last = &r.Requests[i]
		}
	}
	switch {
	case perRequestTimings(r.Requests):
		return engine.StoredReply(last.EngineTimings), true
	case schema.MeasuredCount(r.Requests) <= 1:
		return engine.StoredReply(r.EngineTimings), true
	}
	return nil, false
}

// replyMismatches reads the json: metrics and counters whose field the
// stored reply holds again from it, as the harness read them.
func replyMismatches(s *scenarios.Scenario, r schema.Run, reply map[string]any) []string {
	var out []string
	for _, mp := range s.Policy.Metrics {
		if mp.Extra == nil || mp.Extra.JSON == "" || !engine.InStoredReply(mp.Extra.JSON) {
			continue
		}
		v, found, err := engine.JSONPath(reply, mp.Extra.JSON)
		_, bad := engine.Impossible("metric "+mp.Name, v, true)
		ok := found && err == nil && !bad
		got, has := r.Metrics[mp.Name]
		if has != ok || (ok && got != v) {
			out = append(out, fmt.Sprintf("metrics.%s is %s; its engine_timings give %s", termsafe.String(mp.Name), present(has, got), present(ok, v)))
		}
	}
	for _, cp := range s.Policy.Counters {
		k, err := engine.NewCounter(cp)
		if err != nil || cp.Kind != schema.SourceJSON || !engine.InStoredReply(cp.Expr) {
			continue
		}
		got, err := k.Read(engine.Observation{Reply: reply})
		st, has := r.Counters[k.Name]
		if err != nil || (has && st.Value == got.Value && st.Absent == got.Absent) {
			continue
		}
		stored := "absent"
		if has {
			stored = engine.FormatValue(st.Value) + absentText(st.Absent)
		}
		out = append(out, fmt.Sprintf("counters.%s.value is %s; its engine_timings give %s", termsafe.String(k.Name), stored, engine.FormatValue(got.Value)+absentText(got.Absent)))
	}
	return out
}

// approx writes a bound check computed, to six significant digits.
func approx(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
