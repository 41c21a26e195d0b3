package machine

import (
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/decodebench/decodebench/internal/execfile"
)

// fakeClock advances only when slept on.
type fakeClock struct{ t time.Time }

func (c *fakeClock) Now() time.Time { return c.t }
func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.t = c.t.Add(d)
	return nil
}

// scriptedHost plays a host whose processes use CPU as busy(t) says.
type scriptedHost struct {
	clk   *fakeClock
	start time.Time
	procs func(elapsed time.Duration) []Proc // cumulative CPU seconds
	cond  func(elapsed time.Duration) Conditions
}

func (h *scriptedHost) config() QuietConfig {
	return QuietConfig{
		Window: 10 * time.Second, Interval: time.Second, MaxWait: time.Minute, Clock: h.clk,
		Processes: func(context.Context) ([]Proc, error) { return h.procs(h.clk.t.Sub(h.start)), nil },
		Conditions: func(context.Context) Conditions {
			if h.cond == nil {
				return Conditions{}
			}
			return h.cond(h.clk.t.Sub(h.start))
		},
	}
}

func newHost(procs func(time.Duration) []Proc) *scriptedHost {
	t0 := time.Unix(1_000_000, 0)
	return &scriptedHost{clk: &fakeClock{t0}, start: t0, procs: procs}
}

func TestWaitQuietScripted(t *testing.T) {
	// A process at half a core for 20 s, then idle.
	busyUntil := 20 * time.Second
	spinner := func(e time.Duration) []Proc {
		cpu := 0.5 * min(e, busyUntil).Seconds()
		return []Proc{{PID: 4242, PPID: 1, Name: "busy", CPU: cpu}, {PID: 7, PPID: 1, Name: "idle", CPU: 3}}
	}
	h := newHost(spinner)
	r := WaitQuiet(context.Background(), h.config())
	if !r.Quiet() || r.Waited != busyUntil+11*time.Second {
		t.Errorf("busy then idle: %+v", r)
	}
	if r.Held[QuietBusyProcess] < 19 || len(r.Culprits) != 1 || r.Culprits[0].PID != 4242 || r.Culprits[0].Cores != 0.5 {
		t.Errorf("culprits: %+v held %v", r.Culprits, r.Held)
	}

	// The same process excluded (the engine): quiet after one window.
	h = newHost(spinner)
	cfg := h.config()
	cfg.Exclude = []int{4242}
	if r := WaitQuiet(context.Background(), cfg); !r.Quiet() || r.Waited != 10*time.Second {
		t.Errorf("excluded: %+v", r)
	}
	// A child of an excluded process is the engine's too.
	h = newHost(func(e time.Duration) []Proc {
		return []Proc{{PID: 100, PPID: 1, Name: "engine", CPU: 0}, {PID: 101, PPID: 100, Name: "worker", CPU: e.Seconds()}}
	})
	cfg = h.config()
	cfg.Exclude = []int{100}
	if r := WaitQuiet(context.Background(), cfg); !r.Quiet() || r.Waited != 10*time.Second {
		t.Errorf("excluded tree: %+v", r)
	}

	// Under the threshold is quiet.
	h = newHost(func(e time.Duration) []Proc { return []Proc{{PID: 5, Name: "light", CPU: 0.1 * e.Seconds()}} })
	if r := WaitQuiet(context.Background(), h.config()); !r.Quiet() || r.Waited != 10*time.Second {
		t.Errorf("light load: %+v", r)
	}

	// Never quiet: max wait, with the last block said.
	h = newHost(func(e time.Duration) []Proc { return []Proc{{PID: 9, Name: "rustc", CPU: 0}} })
	r = WaitQuiet(context.Background(), h.config())
	if r.Quiet() || r.EndedBy != QuietTimedOut || r.Waited != time.Minute || len(r.Last) != 1 || r.Last[0].Reason != QuietDeniedProcess || r.Last[0].Name != "rustc" {
		t.Errorf("denied forever: %+v", r)
	}

	// Power and thermal hold it until they clear.
	h = newHost(func(time.Duration) []Proc { return nil })
	h.cond = func(e time.Duration) Conditions {
		on := e < 5*time.Second
		c := Conditions{LowPowerMode: &on, CPUSpeedLimit: ip(100)}
		if e < 8*time.Second {
			c.Power = PowerBattery
		}
		if e < 12*time.Second {
			c.CPUSpeedLimit = ip(60)
		}
		return c
	}
	r = WaitQuiet(context.Background(), h.config())
	if !r.Quiet() || r.Waited != 22*time.Second || r.Held[QuietLowPowerMode] != 4 || r.Held[QuietOnBattery] != 7 || r.Held[QuietThermal] != 11 {
		t.Errorf("conditions: %+v", r)
	}
	cfg = h.config()
	h.clk.t = h.start
	cfg.IgnorePower, cfg.IgnoreThermal = true, true
	if r := WaitQuiet(context.Background(), cfg); r.Waited != 10*time.Second {
		t.Errorf("ignoring conditions: %+v", r)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r := WaitQuiet(ctx, h.config()); r.EndedBy != QuietCanceled {
		t.Errorf("canceled: %+v", r)
	}
}

// TestWaitQuietRealCompiler holds WaitQuiet with a real CPU spinner named
// like a compiler, and checks that it returns once the spinner is killed.
func TestWaitQuietRealCompiler(t *testing.T) {
	// Not a child of this test: decodebench's own children are the engine's.
	pid := startDetachedSpinner(t, "cc1plus")
	killAt := 1500 * time.Millisecond
	go func() {
		time.Sleep(killAt)
		syscall.Kill(pid, syscall.SIGKILL)
	}()
	start := time.Now()
	r := WaitQuiet(context.Background(), QuietConfig{
		Window: time.Second, Interval: 250 * time.Millisecond, MaxWait: 8 * time.Second,
		// Other builds share this machine: only the spinner's name may hold it.
		Deny: []string{"cc1plus"}, CPUThreshold: 1000, IgnorePower: true, IgnoreThermal: true,
	})
	t.Logf("%+v", r)
	if !r.Quiet() {
		t.Fatalf("not quiet after the spinner was killed: %+v", r)
	}
	if d := time.Since(start); d < killAt+time.Second {
		t.Errorf("quiet after %v, before the spinner was killed at %v plus the window", d, killAt)
	}
	if r.Held[QuietDeniedProcess] == 0 || !slices.ContainsFunc(r.Culprits, func(b QuietBlock) bool { return b.PID == pid && b.Name == "cc1plus" }) {
		t.Errorf("the spinner (pid %d) is not named: %+v", pid, r.Culprits)
	}
}

// TestSharesRealSpinner sees a real spinner's CPU share in real process
// listings.
func TestSharesRealSpinner(t *testing.T) {
	spinner := startSpinner(t, "spinme")
	defer func() { spinner.Process.Kill(); spinner.Wait() }()
	ctx := context.Background()
	prev, err := ListProcesses(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	time.Sleep(time.Second)
	cur, err := ListProcesses(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range shares(prev, cur, time.Since(t0)) {
		if s.PID == spinner.Process.Pid {
			// Other builds share this machine: a fifth of a core is enough.
			if s.Cores < 0.1 || s.Name != "spinme" {
				t.Errorf("spinner share %+v, want a good part of a core", s)
			}
			return
		}
	}
	t.Errorf("spinner pid %d not in the shares", spinner.Process.Pid)
}

// startDetachedSpinner runs a spinner named name through a shell that
// exits at once, so that the spinner is not this process's child.
func startDetachedSpinner(t *testing.T, name string) int {
	t.Helper()
	path := copyShell(t, name)
	out, err := exec.Command("sh", "-c", `"$0" -c 'while :; do :; done' </dev/null >/dev/null 2>&1 & echo $!`, path).Output()
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatalf("spinner pid %q: %v", out, err)
	}
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	return pid
}

// startSpinner runs a copy of /bin/sh named name that spins forever.
func startSpinner(t *testing.T, name string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(copyShell(t, name), "-c", "while :; do :; done")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd
}

// copyShell copies /bin/sh to a temporary file named name.
func copyShell(t *testing.T, name string) string {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	path := filepath.Join(t.TempDir(), name)
	if err := execfile.Copy(sh, path, 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestWaitQuietCredit: a wait given credit (a measured window found quiet
// by the gate's rule) counts it toward its window when its first sample,
// which runs from the credit's end, is quiet; a busy first sample, which
// covers the stretch between the credit and the wait, voids it, and so
// does a block later; a credit that ended more than an interval before
// the wait, or one that ends after it began, counts nothing; a wait that
// does not reach its window states no credit.
func TestWaitQuietCredit(t *testing.T) {
	idle := func(time.Duration) []Proc { return []Proc{{PID: 7, PPID: 1, Name: "idle", CPU: 3}} }
	h := newHost(idle)
	cfg := h.config() // window 10 s, a sample a second
	cfg.Credit = &QuietCredit{Since: h.start.Add(-8 * time.Second), At: h.start.Add(-500 * time.Millisecond), Procs: idle(0)}
	// The first sample is one interval from the credit's end (0.5 s into
	// the wait); the window holds from 8 s before the wait, at 2.5 s.
	if r := WaitQuiet(context.Background(), cfg); !r.Quiet() || r.Waited != 2500*time.Millisecond || r.Credit != 8*time.Second || r.Record().CreditS != 8 {
		t.Errorf("quiet credit: %+v", r)
	}

	// 1.5 CPU seconds between the credit's end and the wait's start: the
	// first sample (one interval from the credit's listing) sees them,
	// and the window starts over from the next.
	gap := func(e time.Duration) []Proc {
		return []Proc{{PID: 9, PPID: 1, Name: "burst", CPU: 10 + 1.5*min(max(e+500*time.Millisecond, 0), 500*time.Millisecond).Seconds()/0.5}}
	}
	h = newHost(gap)
	cfg = h.config()
	cfg.Credit = &QuietCredit{Since: h.start.Add(-8 * time.Second), At: h.start.Add(-500 * time.Millisecond), Procs: gap(-500 * time.Millisecond)}
	if r := WaitQuiet(context.Background(), cfg); !r.Quiet() || r.Credit != 0 || r.Waited != 11500*time.Millisecond || r.Held[QuietBusyProcess] != 1 {
		t.Errorf("busy in the gap: %+v", r)
	}

	// Quiet at first, busy at 4–5 s: what the credit gave is void.
	late := func(e time.Duration) []Proc {
		return []Proc{{PID: 9, PPID: 1, Name: "late", CPU: min(max(e-4*time.Second, 0), time.Second).Seconds()}}
	}
	h = newHost(late)
	cfg = h.config()
	cfg.Credit = &QuietCredit{Since: h.start.Add(-time.Second), At: h.start, Procs: late(0)}
	if r := WaitQuiet(context.Background(), cfg); !r.Quiet() || r.Credit != 0 || r.Waited != 16*time.Second {
		t.Errorf("busy after the credit: %+v", r)
	}

	for name, c := range map[string]func(time.Time) *QuietCredit{
		"ended two intervals before the wait": func(t0 time.Time) *QuietCredit {
			return &QuietCredit{Since: t0.Add(-8 * time.Second), At: t0.Add(-2 * time.Second), Procs: idle(0)}
		},
		"ends after the wait began": func(t0 time.Time) *QuietCredit {
			return &QuietCredit{Since: t0.Add(-8 * time.Second), At: t0.Add(time.Second), Procs: idle(0)}
		},
	} {
		h = newHost(idle)
		cfg = h.config()
		cfg.Credit = c(h.start)
		if r := WaitQuiet(context.Background(), cfg); r.Credit != 0 || r.Waited != 10*time.Second {
			t.Errorf("a credit that %s: %+v", name, r)
		}
	}

	// Out of time before the window: no credit stated.
	h = newHost(idle)
	cfg = h.config()
	cfg.MaxWait = 3 * time.Second
	cfg.Credit = &QuietCredit{Since: h.start.Add(-time.Second), At: h.start, Procs: idle(0)}
	if r := WaitQuiet(context.Background(), cfg); r.EndedBy != QuietTimedOut || r.Credit != 0 || r.Record().CreditS != 0 {
		t.Errorf("timed out with a credit: %+v", r)
	}
}

// TestWaitQuietHold: a held wait that has its window samples on until the
// hold is released, starts the window over at a block, and is not ended
// by max_wait while the window holds; released, it ends at once.
func TestWaitQuietHold(t *testing.T) {
	// busyAt is a process that uses one core for the second from at.
	busyAt := func(at time.Duration) func(time.Duration) []Proc {
		return func(e time.Duration) []Proc {
			return []Proc{{PID: 9, PPID: 1, Name: "late", CPU: min(max(e-at, 0), time.Second).Seconds()}}
		}
	}
	idle := func(time.Duration) []Proc { return nil }
	for _, tc := range []struct {
		name          string
		release, want time.Duration // the hold's release and the wait's end
		procs         func(time.Duration) []Proc
		held          int // busy samples
	}{
		{"held past the window", 15 * time.Second, 15 * time.Second, idle, 0},
		// Busy at 12–13 s, after the window held and before the release:
		// the window starts over and the wait ends once it holds again.
		{"busy while held", 15 * time.Second, 24 * time.Second, busyAt(12 * time.Second), 1},
		// Held past max_wait with the window holding: quiet, not timed out.
		{"held past max_wait", 70 * time.Second, 70 * time.Second, idle, 0},
		// Held since 10 s, busy at 70–71 s (past max_wait): the window is
		// waited for again, not timed out; it holds again at 82 s, after
		// the release (80 s).
		{"busy while held past max_wait", 80 * time.Second, 82 * time.Second, busyAt(70 * time.Second), 1},
	} {
		hold := make(chan struct{})
		h := newHost(func(e time.Duration) []Proc {
			if e >= tc.release && !released(hold) {
				close(hold)
			}
			return tc.procs(e)
		})
		cfg := h.config()
		cfg.Hold = hold
		if r := WaitQuiet(context.Background(), cfg); !r.Quiet() || r.Waited != tc.want || r.Held[QuietBusyProcess] != tc.held {
			t.Errorf("%s: %+v, want quiet after %v", tc.name, r, tc.want)
		}
	}

	// Released in the middle of a real sleep, with the window holding
	// since the first sample (2 s in, thanks to the credit): it ends at
	// the release (2.5 s), not at the next sample (4 s).
	hold2 := make(chan struct{})
	now := time.Now()
	cfg := QuietConfig{Window: 100 * time.Millisecond, Interval: 2 * time.Second, MaxWait: time.Minute, Hold: hold2,
		Processes:  func(context.Context) ([]Proc, error) { return nil, nil },
		Conditions: func(context.Context) Conditions { return Conditions{} },
		Credit:     &QuietCredit{Since: now.Add(-time.Second), At: now, Procs: nil}}
	time.AfterFunc(2500*time.Millisecond, func() { close(hold2) })
	r := WaitQuiet(context.Background(), cfg)
	// The release comes 2.5 s after now; the wait began a little later
	// (on a loaded host, more than a millisecond), so its own Waited may
	// fall short of 2.5 s: the time since now may not.
	if ended := time.Since(now); !r.Quiet() || r.Samples != 1 || ended < 2500*time.Millisecond || r.Waited >= 4*time.Second {
		t.Errorf("released during a sleep: %+v, ended %v after the release was armed", r, ended)
	}
}

// TestContentionQuietCredit: a meter's window is credit when the gate's
// rule finds it quiet as the gate's own samples would: none when another
// process used more than the threshold over it, or more CPU time than
// one of the gate's samples allows (a burst the average hides), or a
// denied one ran at either end, or the machine's CPU outside the
// campaign was above that budget.
func TestContentionQuietCredit(t *testing.T) {
	for _, tc := range []struct {
		name          string
		during        float64 // CPU seconds the other process used in the window
		first, second string  // its name at the window's start and end
		interval      time.Duration
		want          bool
	}{
		{"idle", 0.001, "idle", "idle", time.Second, true},
		{"busy", 10, "busy", "busy", time.Second, false},
		{"denied at the end", 0, "idle", "rustc", time.Second, false},
		{"denied at the start only", 0, "rustc", "idle", time.Second, false},
		// 5 ms of CPU in a window of about 50 ms: 10% of a core on
		// average, under the 15%; 5 ms is more than 15% of a 10 ms sample.
		{"a burst", 0.005, "idle", "idle", 10 * time.Millisecond, false},
	} {
		calls := 0
		list := func(context.Context) ([]Proc, error) {
			calls++
			cpu, name := 1.0, tc.first
			if calls > 1 {
				cpu, name = cpu+tc.during, tc.second
			}
			return []Proc{{PID: 4242, PPID: 1, Name: name, CPU: cpu}}, nil
		}
		m, err := startContention(context.Background(), list, nil)
		if err != nil {
			t.Fatal(err)
		}
		cfg := QuietConfig{Interval: tc.interval, Conditions: func(context.Context) Conditions { return Conditions{} }}
		if m.QuietCredit(context.Background(), cfg) != nil {
			t.Errorf("%s: credit before Stop", tc.name)
		}
		time.Sleep(50 * time.Millisecond)
		if _, err := m.Stop(context.Background()); err != nil {
			t.Fatal(err)
		}
		m.othersCPU = 0 // this machine's own background is not the case's
		c := m.QuietCredit(context.Background(), cfg)
		if (c != nil) != tc.want {
			t.Errorf("%s: credit %+v, want one: %v", tc.name, c, tc.want)
			continue
		}
		if c != nil && (!c.Since.Equal(m.start) || !c.At.Equal(m.end) || len(c.Procs) != 1) {
			t.Errorf("%s: credit %+v, the window %v to %v", tc.name, c, m.start, m.end)
		}
		if c != nil {
			// CPU outside the campaign that no listing shows (a process
			// that came and went) above one sample's budget: none.
			m.othersCPU = 0.2
			if c := m.QuietCredit(context.Background(), cfg); c != nil {
				t.Errorf("%s: credit %+v with 0.2 CPU seconds outside the campaign", tc.name, c)
			}
		}
	}
}
