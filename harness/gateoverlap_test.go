package harness

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/decodebench/decodebench/machine"
	"github.com/decodebench/decodebench/schema"
)

// overlapExec is a server-like executor: it "starts its engine" and
// "warms up" (sleeps, noting when), awaits the pending gate as runOne
// does, warms up again where the gate says so, then "measures".
type overlapExec struct {
	hostFakeExec
	c       *campaign
	warm    time.Duration
	mu      sync.Mutex
	started []time.Time // when each run's engine started
	windows []time.Time // when each run's measured window opened
	rewarms int
	// failStart: runs after the first fail before they await the gate
	// (an engine that did not start).
	failStart bool
}

func (f *overlapExec) awaitsGate() bool { return true }

func (f *overlapExec) Execute(ctx context.Context, slot Slot, run *schema.Run) error {
	f.mu.Lock()
	f.started = append(f.started, time.Now())
	n := len(f.started)
	f.mu.Unlock()
	if f.failStart && n > 1 {
		return errors.New("engine did not start")
	}
	time.Sleep(f.warm)
	rewarm, err := f.c.awaitGate(slot, run)
	if err != nil {
		return err
	}
	if rewarm {
		f.rewarms++
		time.Sleep(f.warm)
	}
	f.mu.Lock()
	f.windows = append(f.windows, time.Now())
	f.mu.Unlock()
	return f.hostFakeExec.Execute(ctx, slot, run)
}

// gateScript is a fake quiet gate: it reports a sample every step (busy
// at the samples busy names, 1-based), and ends quiet once it has seen
// window of quiet since its last busy sample, or ends by max_wait after
// limit samples. It notes when each wait ended.
type gateScript struct {
	step, window time.Duration
	busy         map[int]bool
	limit        int
	// firstQuiet: the first wait ends quiet at its first sample.
	firstQuiet bool
	mu         sync.Mutex
	ended      []time.Time
}

func (g *gateScript) wait(ctx context.Context, cfg machine.QuietConfig) machine.QuietResult {
	began, quiet := time.Now(), time.Duration(0)
	g.mu.Lock()
	first := g.firstQuiet && len(g.ended) == 0
	g.mu.Unlock()
	end := func(e machine.QuietEnd) machine.QuietResult {
		g.mu.Lock()
		g.ended = append(g.ended, time.Now())
		g.mu.Unlock()
		return machine.QuietResult{EndedBy: e, Waited: time.Since(began)}
	}
	for i := 1; ; i++ {
		time.Sleep(g.step)
		var blocks []machine.QuietBlock
		if g.busy[i] {
			blocks = []machine.QuietBlock{{Reason: machine.QuietBusyProcess, PID: 7, Name: "spinner", Cores: 1}}
			quiet = 0
		} else {
			quiet += g.step
		}
		cfg.Progress(machine.QuietProgress{Waited: time.Since(began), MaxWait: cfg.MaxWait, QuietFor: quiet, Window: g.window, Blocks: blocks})
		switch {
		case quiet >= g.window, first:
			return end(machine.QuietReached)
		case g.limit > 0 && i >= g.limit:
			return end(machine.QuietTimedOut)
		}
	}
}

// overlapCampaign runs 2 rounds with a 100 ms cooldown through an
// overlapExec (failStart set as given) beside the scripted gate; failed
// runs are kept and the campaign goes on.
func overlapCampaign(t *testing.T, gates string, g *gateScript, warm time.Duration, failStart bool) (*schema.Record, *overlapExec) {
	t.Helper()
	src := strings.Replace(testScenario, "schedule: {rounds: 6}", "schedule: {rounds: 2, cooldown: 100ms}\non_failure: continue\ngates:\n  quiet: "+gates+"\n", 1)
	c := testCampaign(t, src)
	fx := &overlapExec{c: c, warm: warm, failStart: failStart}
	c.exec = fx
	c.host = hostState{waitQuiet: g.wait, conditions: func(context.Context) machine.Conditions { return machine.Conditions{} }}
	return executeTest(t, context.Background(), c).Record, fx
}

// A host quiet through the cooldown: the engine starts and warms up while
// the gate watches on, and the measured window opens only after the gate
// saw its whole window of quiet; the quiet phase is what the gate held
// the run past the warmups. The first run (no cooldown) waits as before.
func TestEngineWarmsUpBesideTheQuietGate(t *testing.T) {
	g := &gateScript{step: 50 * time.Millisecond, window: 600 * time.Millisecond}
	rec, fx := overlapCampaign(t, "{window: 600ms, interval: 50ms}", g, 200*time.Millisecond, false)
	if len(rec.Runs) != 4 || len(g.ended) != 4 || fx.rewarms != 0 {
		t.Fatalf("%d runs, %d gates, %d rewarms", len(rec.Runs), len(g.ended), fx.rewarms)
	}
	for i, r := range rec.Runs {
		started, window, ended := fx.started[i], fx.windows[i], g.ended[i]
		if window.Before(ended) {
			t.Errorf("run %d measured %v before the gate saw its window of quiet", r.Seq, ended.Sub(window))
		}
		if r.Quiet == nil || r.Quiet.EndedBy != "quiet" {
			t.Errorf("run %d: quiet %+v", r.Seq, r.Quiet)
		}
		if i == 0 {
			if !started.After(ended) {
				t.Error("the first run, which has no cooldown, started its engine before its gate ended")
			}
			continue
		}
		// Started after the 100 ms cooldown, about 500 ms before the gate
		// ended; the warmups (200 ms) end before it, and the run is held
		// for the rest.
		if lead := ended.Sub(started); lead < 300*time.Millisecond {
			t.Errorf("run %d started its engine %v before its gate ended, want about 500ms", r.Seq, lead)
		}
		if q := r.Phases.QuietS; q <= 0.1 || q > 0.45 || r.Phases.CooldownS < 0.1 || r.Phases.CooldownS > 0.3 {
			t.Errorf("run %d: cooldown %.3fs, quiet %.3fs past the warmups: want 0.1s and about 0.3s", r.Seq, r.Phases.CooldownS, q)
		}
	}
}

// A host found busy during the cooldown: no overlap, the run waits for
// the gate first. Busy during the warmups: the run waits for the gate,
// then warms up again.
func TestQuietGateBusyBeforeOrDuringTheWarmups(t *testing.T) {
	g := &gateScript{step: 50 * time.Millisecond, window: 300 * time.Millisecond, busy: map[int]bool{1: true}}
	rec, fx := overlapCampaign(t, "{window: 300ms, interval: 50ms}", g, 100*time.Millisecond, false)
	for i, r := range rec.Runs {
		if fx.started[i].Before(g.ended[i]) {
			t.Errorf("run %d: busy in the cooldown, yet the engine started %v before the gate ended", r.Seq, g.ended[i].Sub(fx.started[i]))
		}
	}
	if fx.rewarms != 0 {
		t.Errorf("%d rewarms without an overlap", fx.rewarms)
	}
	g = &gateScript{step: 50 * time.Millisecond, window: 300 * time.Millisecond, busy: map[int]bool{4: true}}
	rec, fx = overlapCampaign(t, "{window: 300ms, interval: 50ms}", g, 100*time.Millisecond, false)
	// Run 1 has no cooldown (no overlap; its busy sample holds it); runs
	// 2-4 start at 100 ms and are found busy at 200 ms, in their warmups.
	if fx.rewarms != 3 {
		t.Errorf("%d runs warmed up again, want the 3 that overlapped a busy sample", fx.rewarms)
	}
	for i, r := range rec.Runs {
		if fx.windows[i].Before(g.ended[i]) {
			t.Errorf("run %d measured before its gate ended", r.Seq)
		}
	}
}

// A gate that gives up beside a warming engine with on_busy: abort stops
// the campaign as one that gave up before the engine started: the run is
// not kept, and the campaign is INCOMPLETE and resumable.
func TestQuietGateAbortBesideTheWarmups(t *testing.T) {
	g := &gateScript{step: 50 * time.Millisecond, window: time.Hour, limit: 6, firstQuiet: true}
	rec, fx := overlapCampaign(t, "{window: 1h, interval: 50ms, max_wait: 300ms, on_busy: abort}", g, 100*time.Millisecond, false)
	if len(rec.Runs) != 1 || fx.runs != 1 || len(fx.started) != 2 || !rec.Method.Interrupted || !strings.Contains(rec.Method.StoppedBy, "not quiet") {
		t.Errorf("runs %d (measured %d, started %d), interrupted %v, stopped by %q", len(rec.Runs), fx.runs, len(fx.started), rec.Method.Interrupted, rec.Method.StoppedBy)
	}
}

// A run that fails before it awaits the gate it went on beside (its
// engine did not start) still takes the gate's result, its wait timed as
// its quiet phase; and a gate that gives up there with on_busy: abort
// stops the campaign as it would have before the start.
func TestQuietGateSettledWhenTheRunFailsEarly(t *testing.T) {
	g := &gateScript{step: 50 * time.Millisecond, window: 500 * time.Millisecond}
	rec, fx := overlapCampaign(t, "{window: 500ms, interval: 50ms}", g, 50*time.Millisecond, true)
	if len(rec.Runs) != 4 || fx.c.pending != nil {
		t.Fatalf("%d runs, a gate still pending: %v", len(rec.Runs), fx.c.pending != nil)
	}
	for _, r := range rec.Runs[1:] {
		if r.OK() || r.Quiet == nil || r.Quiet.EndedBy != "quiet" || r.Phases.QuietS < 0.25 {
			t.Errorf("run %d: error %q, quiet %+v, quiet phase %.3fs: want the gate's wait (about 0.4s) timed", r.Seq, r.Error, r.Quiet, r.Phases.QuietS)
		}
	}
	g = &gateScript{step: 50 * time.Millisecond, window: time.Hour, limit: 6, firstQuiet: true}
	rec, _ = overlapCampaign(t, "{window: 1h, interval: 50ms, max_wait: 300ms, on_busy: abort}", g, 50*time.Millisecond, true)
	if len(rec.Runs) != 1 || !rec.Method.Interrupted || !strings.Contains(rec.Method.StoppedBy, "not quiet") {
		t.Errorf("abort after an early failure: %d runs kept, interrupted %v, stopped by %q", len(rec.Runs), rec.Method.Interrupted, rec.Method.StoppedBy)
	}
	// The aborted run's wait is the run cut off, not decodebench's own
	// time outside the runs (it was: cut_off_s 0, outside 0.31 s).
	if rec.Method.CutOffS < 0.25 {
		t.Errorf("abort after an early failure: cut_off_s %.3f, want the gate's wait (about 0.3 s)", rec.Method.CutOffS)
	}
}

// creditExec is an overlapExec whose every run leaves a credit, as
// runOne does after a measured window the gate's rule finds quiet, and
// notes the credit it found pending when it started.
type creditExec struct {
	*overlapExec
	left, found []*machine.QuietCredit
}

func (f *creditExec) Execute(ctx context.Context, slot Slot, run *schema.Run) error {
	f.found = append(f.found, f.c.credit)
	err := f.overlapExec.Execute(ctx, slot, run)
	cr := &machine.QuietCredit{Since: time.Now().Add(-time.Second), At: time.Now()}
	f.left = append(f.left, cr)
	f.c.credit = cr
	return err
}

// The last run's credit goes to the next run's gate alone (taken before
// the run starts), the first run's gate gets none; a gate that watches
// the cooldown is held until the run is ready to measure, so that a
// credit which fills its window at once does not end its watch before
// the warmups do.
func TestQuietGateCreditAndHold(t *testing.T) {
	var mu sync.Mutex
	var credits []*machine.QuietCredit
	var held []bool
	var ended []time.Time
	wait := func(ctx context.Context, cfg machine.QuietConfig) machine.QuietResult {
		began := time.Now()
		mu.Lock()
		credits, held = append(credits, cfg.Credit), append(held, cfg.Hold != nil)
		mu.Unlock()
		time.Sleep(10 * time.Millisecond) // one quiet sample: the credit fills the window
		if cfg.Hold != nil {
			select {
			case <-cfg.Hold:
			case <-ctx.Done():
			}
		}
		mu.Lock()
		ended = append(ended, time.Now())
		mu.Unlock()
		return machine.QuietResult{EndedBy: machine.QuietReached, Waited: time.Since(began)}
	}
	src := strings.Replace(testScenario, "schedule: {rounds: 6}", "schedule: {rounds: 2, cooldown: 100ms}\ngates:\n  quiet: {window: 5s, interval: 1s}\n", 1)
	c := testCampaign(t, src)
	fx := &creditExec{overlapExec: &overlapExec{c: c, warm: 200 * time.Millisecond}}
	c.exec = fx
	c.host = hostState{waitQuiet: wait, conditions: func(context.Context) machine.Conditions { return machine.Conditions{} }}
	rec := executeTest(t, context.Background(), c).Record
	if len(rec.Runs) != 4 || len(credits) != 4 {
		t.Fatalf("%d runs, %d gates", len(rec.Runs), len(credits))
	}
	for i := range rec.Runs {
		if fx.found[i] != nil {
			t.Errorf("run %d found a credit still pending when it started", i+1)
		}
		if i == 0 {
			if credits[0] != nil || held[0] {
				t.Errorf("run 1: credit %v, held %v: want neither (no window before it, no cooldown)", credits[0], held[0])
			}
			continue
		}
		if credits[i] != fx.left[i-1] {
			t.Errorf("run %d: its gate got credit %p, the last run left %p", i+1, credits[i], fx.left[i-1])
		}
		if !held[i] {
			t.Errorf("run %d: its gate watched the cooldown without a hold", i+1)
		}
		// Held, the gate ends when the run awaits it after its 200 ms
		// warmups, not 10 ms into the cooldown.
		if d := ended[i].Sub(fx.started[i]); d < 150*time.Millisecond || fx.windows[i].Before(ended[i]) {
			t.Errorf("run %d: the gate ended %v after the engine started, the window opened %v after the gate ended; want the gate held through the warmups", i+1, d, fx.windows[i].Sub(ended[i]))
		}
	}
	if c.credit == nil || c.credit != fx.left[3] {
		t.Error("the last run's credit is not the campaign's")
	}
}
