package harness

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/decodebench/decodebench/machine"
	"github.com/decodebench/decodebench/schema"
)

type hostFakeExec struct{ runs int }

func (f *hostFakeExec) Execute(ctx context.Context, slot Slot, run *schema.Run) error {
	f.runs++
	v := 100.0 + float64(f.runs%3)
	if slot.Arm == "b" {
		v += 20
	}
	run.Metrics = map[string]float64{schema.DecodeTokS: v, schema.WallS: 1}
	run.Counters = map[string]schema.CounterReading{"c": {Value: map[string]float64{"a": 0, "b": 1}[slot.Arm]}}
	run.Footprint = &schema.Footprint{CPUS: 0.001, WindowS: 1}
	run.Contention = &schema.ContentionSample{Busy: 0.5, Measured: 0.5}
	return nil
}

// loopCampaign runs the campaign loop over a fake executor with the host
// readers replaced.
func loopCampaign(t *testing.T, extra string, host hostState) (*schema.Record, *hostFakeExec) {
	t.Helper()
	src := strings.Replace(testScenario, "schedule: {rounds: 6}", extra, 1)
	c := testCampaign(t, src)
	fx := &hostFakeExec{}
	c.exec, c.host = fx, host
	return executeTest(t, context.Background(), c).Record, fx
}

func TestQuietGateAndAdaptiveCooldownRecorded(t *testing.T) {
	var quietCalls, coolCalls int
	var gotDeny []string
	lvl := 3
	host := hostState{
		waitQuiet: func(_ context.Context, cfg machine.QuietConfig) machine.QuietResult {
			quietCalls++
			gotDeny = cfg.Deny
			if cfg.Window != 3*time.Second || cfg.CPUThreshold != 0.05 {
				t.Errorf("quiet config %+v", cfg)
			}
			return machine.QuietResult{EndedBy: machine.QuietReached, Waited: 4 * time.Second, Held: map[machine.QuietReason]int{machine.QuietDeniedProcess: 1},
				Culprits: []machine.QuietBlock{{Reason: machine.QuietDeniedProcess, PID: 42, Name: "cc1"}}}
		},
		coolDown: func(_ context.Context, cfg machine.CooldownConfig) machine.CooldownResult {
			coolCalls++
			if cfg.Min != time.Second || cfg.Max != 9*time.Second {
				t.Errorf("cooldown config %+v", cfg)
			}
			return machine.CooldownResult{Waited: 1500 * time.Millisecond, EndedBy: machine.CooldownSettled}
		},
		conditions: func(context.Context) machine.Conditions {
			return machine.Conditions{Time: time.Now(), ThermalWarningLevel: &lvl}
		},
	}
	rec, fx := loopCampaign(t, "schedule: {rounds: 4, cooldown: {until_quiet: {min: 1s, max: 9s}}}\ngates:\n  quiet: {window: 3s, max_cpu: 5%, deny: [spinner]}\n", host)
	if fx.runs != 8 || quietCalls != 8 || coolCalls != 7 {
		t.Fatalf("runs %d, quiet gates %d, cooldowns %d", fx.runs, quietCalls, coolCalls)
	}
	if !strings.Contains(strings.Join(gotDeny, ","), "cc1plus") || !strings.Contains(strings.Join(gotDeny, ","), "spinner") || !strings.Contains(strings.Join(gotDeny, ","), "llama-server") {
		t.Errorf("deny list %v lacks the defaults, the scenario's or the engine binary", gotDeny)
	}
	r := rec.Runs[1]
	if r.Quiet == nil || r.Quiet.WaitedS != 4 || r.Quiet.Culprits[0].Name != "cc1" || r.Cooldown == nil || r.Cooldown.EndedBy != "settled" || r.Cooldown.WaitedS != 1.5 {
		t.Errorf("run 2 host record: quiet %+v cooldown %+v", r.Quiet, r.Cooldown)
	}
	if rec.Runs[0].Cooldown != nil {
		t.Error("the first run has a cooldown")
	}
	if r.ConditionsBefore == nil || len(r.ConditionsBefore.Warnings) == 0 || r.ConditionsAfter == nil {
		t.Errorf("conditions not recorded: %+v", r.ConditionsBefore)
	}
	if rec.Method.Quiet == "" || rec.Method.Footprint == nil || rec.Method.Footprint.WindowS != 8 {
		t.Errorf("method: quiet %q footprint %+v", rec.Method.Quiet, rec.Method.Footprint)
	}
	found := false
	for _, w := range rec.Analysis.Warnings {
		found = found || w.Code() == "host-thermal"
	}
	if !found {
		t.Errorf("thermal warning level 3 raised no warning: %+v", rec.Analysis.Warnings)
	}
}

func TestQuietGateAbortStopsCampaign(t *testing.T) {
	host := hostState{
		waitQuiet: func(context.Context, machine.QuietConfig) machine.QuietResult {
			return machine.QuietResult{EndedBy: machine.QuietTimedOut, Waited: time.Minute}
		},
		conditions: func(context.Context) machine.Conditions { return machine.Conditions{} },
	}
	rec, fx := loopCampaign(t, "schedule: {rounds: 4}\ngates:\n  quiet: {on_busy: abort}\n", host)
	if fx.runs != 0 || !rec.Method.Interrupted || !strings.Contains(rec.Method.StoppedBy, "not quiet") || rec.Verdict != schema.Incomplete {
		t.Errorf("runs %d, interrupted %v, stopped by %q, verdict %s", fx.runs, rec.Method.Interrupted, rec.Method.StoppedBy, rec.Verdict)
	}
	rec, fx = loopCampaign(t, "schedule: {rounds: 4}\ngates:\n  quiet: {on_busy: mark}\n", host)
	if fx.runs != 8 || rec.Runs[0].Quiet.OnBusy != "mark" || !rec.Analysis.Marks[0].Contended {
		t.Errorf("mark: runs %d, quiet %+v, contended %v", fx.runs, rec.Runs[0].Quiet, rec.Analysis.Marks[0].Contended)
	}
}

// A fixed cooldown is watched by the quiet gate as it passes: the gate is
// asked before the cooldown ends, and a host found quiet within it holds
// the run no longer (no quiet phase past the cooldown). The gate of the
// first run, which has no cooldown, is timed as before.
func TestQuietGateWatchesTheCooldown(t *testing.T) {
	var mu sync.Mutex
	var asked []time.Time
	host := hostState{
		waitQuiet: func(context.Context, machine.QuietConfig) machine.QuietResult {
			mu.Lock()
			asked = append(asked, time.Now())
			mu.Unlock()
			return machine.QuietResult{EndedBy: machine.QuietReached, Waited: 5 * time.Second}
		},
		conditions: func(context.Context) machine.Conditions { return machine.Conditions{} },
	}
	rec, fx := loopCampaign(t, "schedule: {rounds: 2, cooldown: 1s}\ngates:\n  quiet: {window: 5s}\n", host)
	if fx.runs != 4 || len(asked) != 4 {
		t.Fatalf("runs %d, quiet gates %d", fx.runs, len(asked))
	}
	for i, r := range rec.Runs {
		if r.Quiet == nil || r.Quiet.WaitedS != 5 {
			t.Errorf("run %d: quiet %+v", r.Seq, r.Quiet)
		}
		if i == 0 {
			if r.Phases.CooldownS != 0 || r.Phases.QuietS <= 0 {
				t.Errorf("run 1: cooldown %.3fs, quiet %.6fs: want no cooldown and the gate timed", r.Phases.CooldownS, r.Phases.QuietS)
			}
			continue
		}
		// Asked at the cooldown's start, a second before the run began;
		// after it, the run would begin at once.
		if lead := r.Start.Sub(asked[i]); lead < 500*time.Millisecond {
			t.Errorf("run %d: the gate was asked %v before the run began, after its 1s cooldown", r.Seq, lead)
		}
		if r.Phases.CooldownS < 0.9 || r.Phases.QuietS != 0 {
			t.Errorf("run %d: cooldown %.3fs, quiet past it %.6fs", r.Seq, r.Phases.CooldownS, r.Phases.QuietS)
		}
	}
}
