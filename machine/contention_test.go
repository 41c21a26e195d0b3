package machine

import (
	"context"
	"math"
	"os/exec"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/shirou/gopsutil/v4/cpu"
	"github.com/shirou/gopsutil/v4/process"
)

func TestContentionArithmetic(t *testing.T) {
	prev := cpu.TimesStat{User: 100, System: 50, Idle: 850}
	// 10 s of wall time on 2 CPUs = 20 CPU-seconds: 12 busy, 8 idle.
	cur := cpu.TimesStat{User: 110, System: 52, Idle: 858}
	c := contention(prev, cur, 9) // the engine used 9 of the 12 busy seconds
	want := Contention{Busy: 0.6, Measured: 0.45, Others: 0.15}
	if math.Abs(c.Busy-want.Busy) > 1e-9 || math.Abs(c.Measured-want.Measured) > 1e-9 || math.Abs(c.Others-want.Others) > 1e-9 {
		t.Errorf("got %+v, want %+v", c, want)
	}
	// Measured processes cannot account for more than the busy time.
	if c := contention(prev, cur, 50); c.Others != 0 || c.Measured != c.Busy {
		t.Errorf("over-attributed: %+v", c)
	}
	if c := contention(cur, cur, 0); c.Busy != 0 || c.Measured != 0 || c.Others != 0 {
		t.Errorf("empty window: %+v", c)
	}
}

// A busy process that is not watched shows as contention.
func TestContentionSeesOthers(t *testing.T) {
	ctx := context.Background()
	m, err := StartContention(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Burn CPU in another process for about half a second.
	if err := exec.Command("sh", "-c", "end=$(($(date +%s%N)+500000000)); while [ $(date +%s%N) -lt $end ]; do :; done").Run(); err != nil {
		t.Skip("no sh:", err)
	}
	c, err := m.Stop(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("contention %+v", c)
	if c.Others <= 0.1 {
		t.Errorf("a busy unwatched process was not seen: %+v", c)
	}
}

// TestContentionProcessTree counts a real engine's child as the engine's,
// names a real unrelated busy process, and lists other GPU processes.
func TestContentionProcessTree(t *testing.T) {
	ctx := context.Background()
	// The "engine": a shell that starts a busy worker and waits for it.
	engine := exec.Command("sh", "-c", "sh -c 'while :; do :; done' & wait")
	engine.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // its own group, killed whole below
	if err := engine.Start(); err != nil {
		t.Skip("no sh:", err)
	}
	t.Cleanup(func() {
		syscall.Kill(-engine.Process.Pid, syscall.SIGKILL)
		engine.Process.Kill()
		engine.Wait()
	})
	hog := startDetachedSpinner(t, "hog")
	time.Sleep(100 * time.Millisecond) // let the worker start
	gpu := func(context.Context) ([]GPUProcess, error) {
		return []GPUProcess{{PID: engine.Process.Pid, Name: "engine", UsedMemMiB: 1}, {PID: hog, Name: "hog", UsedMemMiB: 2}}, nil
	}
	// What the spinners really got, measured apart from the code under
	// test: on a loaded host a spinner may get a small share of a core, so
	// the test judges against that share, not against a fixed floor.
	tree := func() float64 {
		return cpuSeconds(t, engine.Process.Pid) + cpuSeconds(t, childOf(t, engine.Process.Pid))
	}
	tree0, hog0, start := tree(), cpuSeconds(t, hog), time.Now()
	m, err := startContention(ctx, ListProcesses, gpu, engine.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second)
	c, err := m.Stop(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wall := time.Since(start).Seconds()
	treeCores, hogCores := (tree()-tree0)/wall, (cpuSeconds(t, hog)-hog0)/wall
	t.Logf("%+v; measured apart: engine tree %.2f cores, hog %.2f", c, treeCores, hogCores)
	if c.EngineProcesses != 2 {
		t.Errorf("engine processes %d, want 2 (the shell and its worker)", c.EngineProcesses)
	}
	ncpu := float64(runtime.NumCPU())
	if c.Measured*ncpu < treeCores/2 {
		t.Errorf("the worker's CPU was not counted as the engine's: measured %.2f cores, the tree used %.2f", c.Measured*ncpu, treeCores)
	}
	found := false
	for _, o := range c.TopOthers {
		if o.PID == engine.Process.Pid {
			t.Errorf("the engine counted as another process: %+v", o)
		}
		if o.PID == hog && o.Name == "hog" && o.Cores > hogCores/2 {
			found = true
		}
	}
	// On a host loaded by other work three processes can each outrun the
	// hog; the list must then hold processes at least as busy as it was.
	crowded := len(c.TopOthers) == 3 && c.TopOthers[2].Cores >= hogCores*0.8
	if !found && !crowded {
		t.Errorf("the hog (pid %d, %.2f cores) is not among the busiest others %+v", hog, hogCores, c.TopOthers)
	}
	if len(c.GPUOthers) != 1 || c.GPUOthers[0].PID != hog {
		t.Errorf("GPU others %+v, want the hog alone", c.GPUOthers)
	}
	if _, err := StartContention(ctx, 1<<30); err == nil {
		t.Error("a pid that does not run was accepted")
	}
}

// cpuSeconds is a process's user and system CPU time, read through
// gopsutil rather than the code under test.
func cpuSeconds(t *testing.T, pid int) float64 {
	t.Helper()
	p, err := process.NewProcess(int32(pid))
	if err != nil {
		t.Fatal(err)
	}
	ts, err := p.Times()
	if err != nil {
		t.Fatal(err)
	}
	return ts.User + ts.System
}

// childOf is pid's one child process.
func childOf(t *testing.T, pid int) int {
	t.Helper()
	p, err := process.NewProcess(int32(pid))
	if err != nil {
		t.Fatal(err)
	}
	kids, err := p.Children()
	if err != nil || len(kids) != 1 {
		t.Fatalf("children of %d: %v %v", pid, kids, err)
	}
	return int(kids[0].Pid)
}
