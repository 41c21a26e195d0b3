package e2e

import (
	"math"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// checkTimeUse checks a real campaign's account of its time: every run
// timed its phases, they add up to the wall time, the measured phase is
// the measured windows (the footprint's, within 0.1 s a run), replays
// happened in exactly the runs replays runs, and what the phases leave,
// decodebench's own work (metric scrapes, load and host samples, the
// journal), stays within the stated tolerance: 0.5 s a run and 1 s for
// the campaign (about 0.3 s a run on a 2-core VM at load 17).
func checkTimeUse(t *testing.T, res result, replays int) {
	t.Helper()
	rec := res.record
	tu, ok := rec.TimeUse()
	if !ok {
		t.Fatal("the runs did not time their phases")
	}
	var sum, windows float64
	for _, p := range tu.Phases {
		sum += p.Seconds
	}
	replayed := 0
	for _, r := range rec.Runs {
		if r.Footprint != nil {
			windows += r.Footprint.WindowS
		}
		if r.Phases.ReplayS > 0 {
			replayed++
		}
		if r.Phases.StartS != r.ReadyS || r.Phases.MeasuredS <= 0 || r.Phases.StopS <= 0 || r.Phases.SpanS < r.Seconds {
			t.Errorf("run %d: phases %+v, ready %gs, %gs in all", r.Seq, *r.Phases, r.ReadyS, r.Seconds)
		}
	}
	runs := float64(len(rec.Runs))
	if math.Abs(sum-tu.WallS) > 1e-6 {
		t.Errorf("phases add up to %gs, the wall time is %gs", sum, tu.WallS)
	}
	if m := tu.Of(schema.PhaseMeasured); m < windows || m > windows+0.1*runs {
		t.Errorf("measured %gs, the windows %gs", m, windows)
	}
	if replayed != replays {
		t.Errorf("%d runs replayed, want %d", replayed, replays)
	}
	// decodebench's own time: half a second a run at most, a second of
	// set-up, the host check's 1s watch before the first run (outside the
	// runs; harness.hostCheckFor) and a second to spare.
	if own := tu.Of(schema.PhaseInRuns) + tu.Of(schema.PhaseOutside); own < 0 || own > 0.5*runs+1+1+1 {
		t.Errorf("decodebench's own time %gs of %gs: the phases do not account for the wall time (%+v)", own, tu.WallS, tu)
	}
	if !strings.Contains(res.md, "## Where the time went\n\nMeasured **") {
		t.Error("the record does not say where the time went")
	}
	t.Logf("measured %.1fs of %.1fs; %+v", tu.Of(schema.PhaseMeasured), tu.WallS, tu.Phases)
}
