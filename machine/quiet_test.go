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
