package e2e

import (
	"fmt"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// TestEngineWarmsUpBesideTheQuietGate: on the real llama-server, a run
// whose host stayed quiet through its cooldown starts its engine and
// sends its warmup while the quiet gate watches on, and opens its
// measured window once the gate has seen its whole window of quiet: the
// gate watched longer than the run waited (cooldown and quiet phases),
// the engine's start and warmup filled the rest, and the phases still add
// up to the wall time. A run after the first counts the last run's
// measured window, quiet by the gate's rule, toward its window
// (machine.QuietCredit): the gate's own watch and that credit make the
// window. The gate's CPU threshold is set above the busiest
// background process, measured first (as TestQuietGateHoldsForACompiler
// does), so that a shared host's own load does not hold it.
func TestEngineWarmsUpBesideTheQuietGate(t *testing.T) {
	needEngine(t)
	maxCPU := aboveBackground(backgroundCores(t))
	yaml := strings.Replace(hostScenario(fmt.Sprintf("gates: {max_spread: 0, max_contended: 0, quiet: {window: 1500ms, interval: 250ms, max_wait: 60s, max_cpu: %d%%}}", maxCPU)),
		"rounds: 4, warmup: 0, cooldown: 0s", "rounds: 2, warmup: 1, cooldown: 250ms", 1)
	yaml = strings.Replace(yaml, "max_tokens: 48,", "max_tokens: 16,", 1)
	res := startFile(t, yaml).wait(t)
	if res.code != 0 && res.code != 2 || res.record == nil {
		t.Fatalf("exit %d:\n%s", res.code, res.stderr)
	}
	overlapped, credited := 0, 0
	for i, r := range res.record.Runs {
		q, ph := r.Quiet, r.Phases
		if q == nil || ph == nil {
			t.Fatalf("run %d: quiet %+v, phases %+v", r.Seq, q, ph)
		}
		waited := ph.CooldownS + ph.QuietS
		t.Logf("run %d: gate %.2fs (%s, %d culprits, %.2fs from the last window); cooldown %.2fs, start %.2fs, warmup %.2fs, held past the warmup %.2fs",
			r.Seq, q.WaitedS, q.EndedBy, len(q.Culprits), q.CreditS, ph.CooldownS, ph.StartS, ph.WarmupS, ph.QuietS)
		if i == 0 && q.CreditS > 0 {
			t.Errorf("run %d: %.2fs of credit with no window before it", r.Seq, q.CreditS)
		}
		if i == 0 || q.EndedBy != "quiet" || len(q.Culprits) > 0 {
			continue
		}
		if q.CreditS > 0 {
			credited++
		}
		if q.WaitedS+q.CreditS < 1.5 {
			t.Errorf("run %d: the gate saw %.2fs of quiet and counted %.2fs before it, want its 1.5s window", r.Seq, q.WaitedS, q.CreditS)
		}
		if waited < q.WaitedS-0.1 {
			overlapped++
			// The window opened after the gate ended: the run's waits,
			// its engine's start and warmup span the gate's time.
			if opened := waited + ph.StartS + ph.WarmupS; opened < q.WaitedS-0.05 {
				t.Errorf("run %d: measured %.2fs into a gate of %.2fs", r.Seq, opened, q.WaitedS)
			}
		}
	}
	if overlapped == 0 {
		t.Error("no run started its engine while the quiet gate watched on")
	}
	// A window the gate's rule finds quiet as one of its own samples
	// would (machine.ContentionMeter.QuietCredit): the CPU outside the
	// campaign within the threshold's share of one 250 ms sample. Where
	// the shared host's background left none such, there is nothing to
	// count.
	eligible := 0
	for i, r := range res.record.Runs[:len(res.record.Runs)-1] {
		ct, ph, next := r.Contention, r.Phases, res.record.Runs[i+1].Quiet
		if ct == nil || ph == nil || next == nil || next.EndedBy != "quiet" || len(next.Culprits) > 0 {
			continue
		}
		if ct.Others*float64(runtime.NumCPU())*ph.MeasuredS <= 0.5*float64(maxCPU)/100*0.25 {
			eligible++
		}
	}
	if credited == 0 && eligible > 0 {
		t.Errorf("no run's gate counted the last run's measured window, though %d windows were quiet by its rule", eligible)
	}
	checkTimeUse(t, res, 0)
	if out, err := exec.Command(binary, "check", res.path).CombinedOutput(); err != nil {
		t.Errorf("check: %v\n%s", err, out)
	}
}
