package machine

import (
	"context"
	"testing"
	"time"
)

// A host check names the busiest processes outside the campaign and what
// the quiet rule finds: a busy loop above the threshold, a compiler on
// the deny list however idle; a host with neither is quiet.
func TestCheckHostNamesTheBusiestAndTheRule(t *testing.T) {
	h := newHost(func(e time.Duration) []Proc {
		return []Proc{
			{PID: 4242, PPID: 1, Name: "yes", CPU: e.Seconds()},
			{PID: 77, PPID: 1, Name: "cc1plus", CPU: 0.001 * e.Seconds()},
			{PID: 8, PPID: 1, Name: "python3", CPU: 0.05 * e.Seconds()},
			{PID: 9, PPID: 1, Name: "idle", CPU: 3},
		}
	})
	hc := CheckHost(context.Background(), h.config(), 2*time.Second)
	if hc.Quiet() || len(hc.Busiest) != 2 || hc.Busiest[0].Name != "yes" || hc.Busiest[0].Cores != 1 || hc.Busiest[1].Name != "python3" {
		t.Fatalf("busiest %+v blocks %+v", hc.Busiest, hc.Blocks)
	}
	reasons := map[QuietReason]string{}
	for _, b := range hc.Blocks {
		reasons[b.Reason] = b.Name
	}
	if reasons[QuietBusyProcess] != "yes" || reasons[QuietDeniedProcess] != "cc1plus" || len(hc.Blocks) != 2 {
		t.Errorf("blocks %+v", hc.Blocks)
	}
	quiet := newHost(func(e time.Duration) []Proc {
		return []Proc{{PID: 8, PPID: 1, Name: "python3", CPU: 0.05 * e.Seconds()}}
	})
	if hc := CheckHost(context.Background(), quiet.config(), 2*time.Second); !hc.Quiet() || len(hc.Busiest) != 1 {
		t.Errorf("a quiet host: %+v", hc)
	}
}

// A wait told the host was found busy before gives up at its first busy
// sample, and waits the window out when the host is quiet; progress is
// reported after every sample.
func TestWaitQuietGivesUpWhenBusyAgain(t *testing.T) {
	busy := newHost(func(e time.Duration) []Proc { return []Proc{{PID: 4242, PPID: 1, Name: "yes", CPU: e.Seconds()}} })
	cfg := busy.config()
	cfg.GiveUpWhenBusy = true
	var seen []QuietProgress
	cfg.Progress = func(p QuietProgress) { seen = append(seen, p) }
	r := WaitQuiet(context.Background(), cfg)
	if r.EndedBy != QuietTimedOut || r.Waited != time.Second || len(r.Culprits) != 1 || len(seen) != 1 || len(seen[0].Blocks) != 1 || seen[0].MaxWait != time.Minute {
		t.Errorf("busy again: %+v, progress %+v", r, seen)
	}
	idle := newHost(func(time.Duration) []Proc { return []Proc{{PID: 4242, PPID: 1, Name: "yes", CPU: 1}} })
	cfg = idle.config()
	cfg.GiveUpWhenBusy = true
	seen = nil
	cfg.Progress = func(p QuietProgress) { seen = append(seen, p) }
	if r := WaitQuiet(context.Background(), cfg); !r.Quiet() || r.Waited != 10*time.Second || len(seen) != 10 || seen[4].QuietFor != 5*time.Second {
		t.Errorf("quiet again: %+v, progress %+v", r, seen)
	}
}
