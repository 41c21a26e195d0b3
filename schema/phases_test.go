package schema

import (
	"math"
	"slices"
	"testing"
	"time"
)

// A record's time use sums its runs' phases, says what the phases leave of
// each run (decodebench inside the runs) and of the campaign (outside
// them), and counts the time between an interruption's last run and the
// resume as interrupted; a record whose runs did not time their phases
// has none.
func TestTimeUse(t *testing.T) {
	t0 := time.Date(2026, 12, 2, 3, 0, 0, 0, time.UTC)
	run := func(start float64, ph Phases) Run {
		return Run{Start: t0.Add(time.Duration(start * float64(time.Second))), Seconds: ph.SpanS - ph.CooldownS, Phases: &ph}
	}
	r := &Record{Method: Method{Started: t0, Finished: t0.Add(100 * time.Second), Resumed: []time.Time{t0.Add(60 * time.Second)}, DiagnosisS: 5},
		Runs: []Run{
			run(1, Phases{SpanS: 10, StartS: 1, WarmupS: 2, MeasuredS: 3, ReplayS: 2, StopS: 0.5}),
			run(13, Phases{SpanS: 12, CooldownS: 2, StartS: 1, WarmupS: 2, MeasuredS: 3, StopS: 0.5}),
			// interrupted after 23 s; resumed at 60 s
			run(61, Phases{SpanS: 12, CooldownS: 2, StartS: 1, WarmupS: 2, MeasuredS: 3, ReplayS: 2, StopS: 0.5}),
		}}
	tu, ok := r.TimeUse()
	if !ok || tu.WallS != 100 {
		t.Fatalf("time use %+v", tu)
	}
	want := map[Phase][2]float64{PhaseMeasured: {9, 3}, PhaseStart: {3, 3}, PhaseWarmup: {6, 3}, PhaseReplay: {4, 2},
		PhaseStop: {1.5, 3}, PhaseCooldown: {4, 2}, PhaseQuiet: {0, 0}, PhaseInRuns: {6.5, 0}, PhaseDiagnosis: {5, 0},
		PhaseInterrupted: {60 - 23, 0}, PhaseOutside: {100 - 34 - 5 - 37, 0}}
	var sum float64
	for _, p := range tu.Phases {
		w := want[p.Phase]
		if math.Abs(p.Seconds-w[0]) > 1e-9 || p.Runs != int(w[1]) {
			t.Errorf("%s: %gs in %d runs, want %gs in %g", p.Phase, p.Seconds, p.Runs, w[0], w[1])
		}
		sum += p.Seconds
	}
	if len(tu.Phases) != len(PhaseOrder) || math.Abs(sum-100) > 1e-9 || math.Abs(tu.Share(PhaseMeasured)-0.09) > 1e-12 {
		t.Errorf("%d phases adding up to %gs, measured share %g", len(tu.Phases), sum, tu.Share(PhaseMeasured))
	}
	r.Runs[1].Phases = nil
	if _, ok := r.TimeUse(); ok {
		t.Error("a run without phases (from before) gave a time use")
	}
}

// A campaign resumed twice with no run finished between the resumes (the
// first resume interrupted again at once) counts each gap once: from the
// last run to the first resume, then from that resume to the second, never
// from the last run to the second resume again (which once made the time
// outside the runs negative).
func TestTimeUseResumedTwice(t *testing.T) {
	t0 := time.Date(2026, 12, 5, 19, 0, 0, 0, time.UTC)
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	run := func(start float64) Run {
		return Run{Start: at(start), Seconds: 10, Phases: &Phases{SpanS: 10, MeasuredS: 10}}
	}
	r := &Record{Method: Method{Started: t0, Finished: at(100), Resumed: []time.Time{at(40), at(60)}},
		Runs: []Run{run(0), run(12), run(61)}} // the second ends at 22; resumed at 40 and at 60
	tu, ok := r.TimeUse()
	if !ok {
		t.Fatal("no time use")
	}
	if got, want := tu.Of(PhaseInterrupted), (40-22)+(60-40.0); math.Abs(got-want) > 1e-9 {
		t.Errorf("interrupted %gs, want %gs (each gap once)", got, want)
	}
	if got, want := tu.Of(PhaseOutside), 100-30-38.0; math.Abs(got-want) > 1e-9 {
		t.Errorf("outside the runs %gs, want %gs", got, want)
	}
	// A run between the resumes starts the second gap at its end.
	r.Runs = append(r.Runs, run(45))
	slices.SortFunc(r.Runs, func(a, b Run) int { return a.Start.Compare(b.Start) })
	r.Method.Finished = at(110)
	tu, _ = r.TimeUse()
	if got, want := tu.Of(PhaseInterrupted), (40-22)+(60-55.0); math.Abs(got-want) > 1e-9 {
		t.Errorf("with a run between the resumes: interrupted %gs, want %gs", got, want)
	}
}
