package harness

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/machine"
	"github.com/decodebench/decodebench/schema"
)

// busyHost is a host check that finds a busy loop on one core.
func busyHost(context.Context, machine.QuietConfig, time.Duration) machine.HostCheck {
	return machine.HostCheck{Cores: 2, Over: 2 * time.Second,
		Load:    &schema.LoadSample{Load1: 7.5, CPUBusyPct: 96},
		Busiest: []machine.ProcShare{{PID: 4242, Name: "yes", Cores: 1}, {PID: 8, Name: "python3", Cores: 0.05}},
		Blocks: []machine.QuietBlock{{Reason: machine.QuietDeniedProcess, PID: 77, Name: "cc1plus"},
			{Reason: machine.QuietBusyProcess, PID: 4242, Name: "yes", Cores: 1}, {Reason: machine.QuietBusyProcess, PID: 77, Name: "cc1plus", Cores: 0.5},
			{Reason: machine.QuietBusyProcess, PID: 5, Name: "a", Cores: 0.4}, {Reason: machine.QuietBusyProcess, PID: 6, Name: "b", Cores: 0.3},
			{Reason: machine.QuietBusyProcess, PID: 7, Name: "c", Cores: 0.2}}}
}

// Before its first run a campaign says what it found of the host (cores,
// load, the busiest processes) and what it does: with a quiet gate, wait
// up to max_wait and then on_busy; without one, start at once with the
// contention gate marking the record.
func TestHostCheckSaysWhatItFoundAndWillDo(t *testing.T) {
	for _, tc := range []struct {
		gates string
		want  []string
	}{
		{"gates:\n  quiet: {window: 5s, max_wait: 1m, on_busy: wait}\n", []string{
			"host check: 2 cores, load 7.5 (1 min), 96% of the CPU busy over 2s; busiest other processes: yes (pid 4242) 100% of a core, python3 (pid 8) 5% of a core",
			"host check: not quiet by the quiet gate's rule (no other process above 15% of one core, and none of its deny list running",
			"cc1plus (pid 77) is on the deny list and uses 50% of a core, yes (pid 4242) uses 100% of a core, a (pid 5) uses 40% of a core, 2 more. The first run waits up to 1m0s for 5s of quiet (progress below); if none comes, on_busy: wait: the runs go on",
			"with a load of 7.5 on 2 cores, every run takes longer than the estimate"}},
		{"", []string{"host check: not quiet", "This scenario has no quiet gate (gates.quiet), so the runs start now: the contention gate judges every measured window"}},
	} {
		var out bytes.Buffer
		c := testCampaign(t, strings.Replace(testScenario, "schedule: {rounds: 6}", "schedule: {rounds: 3}\n"+tc.gates, 1))
		c.exec = &hostFakeExec{}
		c.host = hostState{check: busyHost, waitQuiet: func(context.Context, machine.QuietConfig) machine.QuietResult {
			return machine.QuietResult{EndedBy: machine.QuietReached}
		}, conditions: func(context.Context) machine.Conditions { return machine.Conditions{} }}
		c.progress = NewProgress(&out, false, 0, 0, 0)
		executeTest(t, context.Background(), c)
		got := out.String()
		first := strings.Index(got, "run 1/")
		for _, w := range tc.want {
			if i := strings.Index(got, w); i < 0 || i > first {
				t.Errorf("%q: not said before the first run:\n%s", w, got)
			}
		}
	}
}

// A wait that ran out marks the host busy: later runs look once (and say
// so in the record) until one finds it quiet, which restores the full wait.
func TestQuietGateWaitsInFullOnlyUntilTheHostProvesBusy(t *testing.T) {
	var giveUp []bool
	host := hostState{
		waitQuiet: func(_ context.Context, cfg machine.QuietConfig) machine.QuietResult {
			giveUp = append(giveUp, cfg.GiveUpWhenBusy)
			if cfg.Progress == nil {
				t.Error("no progress asked for")
			}
			if len(giveUp) == 4 {
				return machine.QuietResult{EndedBy: machine.QuietReached, Waited: 5 * time.Second}
			}
			return machine.QuietResult{EndedBy: machine.QuietTimedOut, Waited: time.Minute}
		},
		conditions: func(context.Context) machine.Conditions { return machine.Conditions{} },
	}
	rec, fx := loopCampaign(t, "schedule: {rounds: 3}\ngates:\n  quiet: {on_busy: wait}\n", host)
	want := []bool{false, true, true, true, false, true}
	if fx.runs != 6 || len(giveUp) != 6 {
		t.Fatalf("runs %d, waits %v", fx.runs, giveUp)
	}
	for i, w := range want {
		if giveUp[i] != w {
			t.Errorf("wait %d gave up when busy: %v, want %v (all: %v)", i+1, giveUp[i], w, giveUp)
		}
		if q := rec.Runs[i].Quiet; q.Recheck != (w && i != 3) {
			t.Errorf("run %d recorded recheck %v", i+1, q.Recheck)
		}
	}
}

// runningProbe is an executor that asks, in every run, whether the data
// folder shows a campaign running.
type runningProbe struct {
	hostFakeExec
	c    *campaign
	seen []bool
}

func (p *runningProbe) Execute(ctx context.Context, slot Slot, run *schema.Run) error {
	p.seen = append(p.seen, Running(p.c.dataDir))
	return p.hostFakeExec.Execute(ctx, slot, run)
}

// A campaign holds its data folder locked while it runs, so that check can
// tell a record under way from a finished one; it lets go when it ends.
func TestCampaignHoldsItsDataFolderWhileItRuns(t *testing.T) {
	c := testCampaign(t, strings.Replace(testScenario, "schedule: {rounds: 6}", "schedule: {rounds: 3}", 1))
	probe := &runningProbe{c: c}
	c.exec = probe
	c.host.conditions = func(context.Context) machine.Conditions { return machine.Conditions{} }
	out := executeTest(t, context.Background(), c)
	c.releaseFolders() // as Run does when it returns
	if len(probe.seen) != 6 || slices.Contains(probe.seen, false) {
		t.Errorf("running, seen from the runs: %v", probe.seen)
	}
	if Running(out.DataDir) {
		t.Error("still running after the campaign ended")
	}
}

// A wait that ran out says the limit it ran out at (not the time waited,
// which ends a sampling interval past it) and names what kept the host
// busy, with no empty parentheses when the last look named nothing.
func TestQuietWaitRanOutSaysItsLimit(t *testing.T) {
	for _, tc := range []struct {
		last []machine.QuietBlock
		want string
	}{
		{nil, "run 1: the host was not quiet after 4s; on_busy: wait"},
		{[]machine.QuietBlock{{Reason: machine.QuietBusyProcess, PID: 9, Name: "spin", Cores: 1}}, "run 1: the host was not quiet after 4s (spin (pid 9) uses 100% of a core); on_busy: wait"},
	} {
		var out bytes.Buffer
		c := testCampaign(t, strings.Replace(testScenario, "schedule: {rounds: 6}", "schedule: {rounds: 1}\ngates:\n  quiet: {window: 2s, max_wait: 4s, on_busy: wait}\n", 1))
		c.exec = &hostFakeExec{}
		c.host = hostState{check: busyHost, waitQuiet: func(context.Context, machine.QuietConfig) machine.QuietResult {
			return machine.QuietResult{EndedBy: machine.QuietTimedOut, Waited: 4600 * time.Millisecond, Last: tc.last}
		}, conditions: func(context.Context) machine.Conditions { return machine.Conditions{} }}
		c.progress = NewProgress(&out, false, 0, 0, 0)
		executeTest(t, context.Background(), c)
		if got := out.String(); !strings.Contains(got, tc.want) || strings.Contains(got, "()") {
			t.Errorf("want %q in:\n%s", tc.want, got)
		}
	}
}
