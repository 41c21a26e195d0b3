package harness

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// phasedExec is a fake engine whose every run warms up for warm and
// measures for window, timing them as the real executor does.
type phasedExec struct{ warm, window time.Duration }

func (f phasedExec) Execute(_ context.Context, slot Slot, run *schema.Run) error {
	ph := phasesOf(run)
	time.Sleep(f.warm)
	ph.WarmupS = f.warm.Seconds()
	began := time.Now()
	time.Sleep(f.window)
	ph.MeasuredS = time.Since(began).Seconds()
	v := 100.0 + float64(slot.Seq%3)
	cv := 0.0
	if slot.Arm == "b" {
		v, cv = v+10, 5
	}
	run.Metrics = map[string]float64{schema.DecodeTokS: v, schema.WallS: f.window.Seconds()}
	run.Counters = map[string]schema.CounterReading{"c": {Value: cv}}
	return nil
}

// The record says where the campaign's time went: the phases of every run,
// each timed on its own, and decodebench's own time, adding up to the
// wall time from the campaign's start to its finish. What the phases
// leave, decodebench's own work (load and host samples, the journal),
// stays under the stated tolerance: 0.1 s a run and 0.25 s for the
// campaign (about 35 ms a run measured on a 2-core VM at load 24).
func TestTimeUseAddsUpToTheWallTime(t *testing.T) {
	c := testCampaign(t, strings.Replace(testScenario, "rounds: 6", "rounds: 3, cooldown: 30ms", 1))
	c.exec = phasedExec{warm: 20 * time.Millisecond, window: 30 * time.Millisecond}
	rec := executeTest(t, context.Background(), c).Record
	tu, ok := rec.TimeUse()
	if !ok {
		t.Fatal("no time use")
	}
	var sum float64
	for _, p := range tu.Phases {
		sum += p.Seconds
	}
	wall := rec.Method.Finished.Sub(rec.Method.Started).Seconds()
	if math.Abs(sum-wall) > 1e-9 || tu.WallS != wall {
		t.Errorf("phases add up to %gs, the wall time is %gs", sum, wall)
	}
	runs := len(rec.Runs)
	if m := tu.Of(schema.PhaseMeasured); m < 0.030*float64(runs) || m > wall {
		t.Errorf("measured %gs over %d runs of 30 ms", m, runs)
	}
	if cool := tu.Of(schema.PhaseCooldown); cool < 0.030*float64(runs-1) {
		t.Errorf("cooldowns %gs, want at least %d × 30 ms", cool, runs-1)
	}
	for _, p := range tu.Phases {
		if p.Phase == schema.PhaseCooldown && p.Runs != runs-1 {
			t.Errorf("cooldown in %d runs, want %d (none before the first)", p.Runs, runs-1)
		}
		if p.Phase == schema.PhaseQuiet && p.Seconds != 0 {
			t.Errorf("a quiet-gate wait without a quiet gate: %+v", p)
		}
	}
	own := tu.Of(schema.PhaseInRuns) + tu.Of(schema.PhaseOutside)
	if own < 0 || own > 0.1*float64(runs)+0.25 {
		t.Errorf("decodebench's own time %gs of %gs: the phases do not account for the wall time", own, wall)
	}
	var md strings.Builder
	if err := recorder.Markdown(&md, rec); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "## Where the time went\n\nMeasured **") || !strings.Contains(md.String(), "| **wall time** | 6 |") {
		t.Errorf("the record does not say where the time went:\n%s", md.String())
	}
}

// cuttingExec is phasedExec until its run cut: that run works for work,
// then the campaign is interrupted, and the run ends with the engine
// killed, as a real one does.
type cuttingExec struct {
	phasedExec
	cut    int
	work   time.Duration
	cancel context.CancelCauseFunc
}

func (f cuttingExec) Execute(ctx context.Context, slot Slot, run *schema.Run) error {
	if slot.Seq != f.cut {
		return f.phasedExec.Execute(ctx, slot, run)
	}
	time.Sleep(f.work)
	f.cancel(Interrupt{Signal: "SIGINT"})
	<-ctx.Done()
	return errors.New("engine exited: signal: killed")
}

// The run an interruption cuts off is never journaled, and its time is
// its own phase of the table, not decodebench's work outside the runs.
func TestTimeUseCountsTheRunCutOff(t *testing.T) {
	c := testCampaign(t, strings.Replace(testScenario, "rounds: 6", "rounds: 3", 1))
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	const work = time.Second
	c.exec = cuttingExec{phasedExec: phasedExec{window: 10 * time.Millisecond}, cut: 3, work: work, cancel: cancel}
	rec := executeTest(t, ctx, c).Record
	if !rec.Method.Interrupted || len(rec.Runs) != 2 {
		t.Fatalf("interrupted %v after %d runs, want an interruption in the third", rec.Method.Interrupted, len(rec.Runs))
	}
	if rec.Method.CutOffS < work.Seconds() {
		t.Errorf("cut_off_s %g, want at least the %v the cut run worked", rec.Method.CutOffS, work)
	}
	tu, ok := rec.TimeUse()
	if !ok {
		t.Fatal("no time use")
	}
	if got := tu.Of(schema.PhaseCutOff); got != rec.Method.CutOffS {
		t.Errorf("cut-off phase %gs, want cut_off_s %gs", got, rec.Method.CutOffS)
	}
	// The tolerance of TestTimeUseAddsUpToTheWallTime, 0.1 s a run and
	// 0.25 s for the campaign.
	if out := tu.Of(schema.PhaseOutside); out < 0 || out > 0.1*3+0.25 {
		t.Errorf("decodebench outside the runs %gs: the cut run's %v is counted there", out, work)
	}
	var md strings.Builder
	if err := recorder.Markdown(&md, rec); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "| the run under way when the campaign stopped (cut off, its work lost) | — | ") {
		t.Errorf("the record's time table has no row for the run cut off:\n%s", md.String())
	}
}

// A stop that came between runs cuts nothing off: the next slot does not
// begin, and the record writes no cut_off_s (it showed a row of 0.0 s for
// a run that never ran).
func TestTimeUseNoCutOffBetweenRuns(t *testing.T) {
	c := testCampaign(t, testScenario)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.measure(ctx, Slot{Seq: 2, Round: 1, Arm: "b"}, 1); !errors.Is(err, errInterrupted) {
		t.Fatalf("measure after the stop: %v, want errInterrupted", err)
	}
	if c.cutOff != 0 {
		t.Errorf("a stop between runs cut off %v", c.cutOff)
	}
}
