package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "slowdown-test-")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "slowdown")
	build := exec.Command("go", "build", "-o", binary, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build slowdown:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// exitOf runs slowdown and returns its wait status.
func exitOf(t *testing.T, args ...string) syscall.WaitStatus {
	t.Helper()
	cmd := exec.Command(binary, args...)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	t.Logf("slowdown %q: %s", args, out)
	return cmd.ProcessState.Sys().(syscall.WaitStatus)
}

// The command's exit status, or the signal it died by, is slowdown's.
func TestExitStatusForwarded(t *testing.T) {
	if ws := exitOf(t, "-stop", "30%", "sh", "-c", "exit 7"); ws.ExitStatus() != 7 {
		t.Errorf("exit 7 came back as %v", ws)
	}
	if ws := exitOf(t, "-stop", "30%", "--", "sh", "-c", "kill -KILL $$"); !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Errorf("death by SIGKILL came back as %v", ws)
	}
	if ws := exitOf(t, "-stop", "0", "true"); ws.ExitStatus() != 0 {
		t.Errorf("success came back as %v", ws)
	}
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"-stop", "90%", "true"}, {"-stop", "-1%", "true"}, {"-stop", "x", "true"}, {"-period", "0s", "true"}} {
		if ws := exitOf(t, args...); ws.ExitStatus() != exitUsage {
			t.Errorf("slowdown %q: %v, want exit %d", args, ws, exitUsage)
		}
	}
	if ws := exitOf(t, "/nonexistent/command"); ws.ExitStatus() != 127 {
		t.Errorf("a command that cannot start: %v, want exit 127", ws)
	}
}

// started runs slowdown on a shell script that prints its pid first, and
// returns slowdown and the script's pid.
func started(t *testing.T, stop, script string) (*exec.Cmd, int) {
	t.Helper()
	cmd := exec.Command(binary, "-stop", stop, "sh", "-c", "echo $$; "+script)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	pid, perr := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || perr != nil {
		t.Fatalf("no pid from the script: %q %v", line, err)
	}
	return cmd, pid
}

// A terminating signal reaches the command (and ends the stops, so that
// it is handled at once): the script traps it and exits 3.
func TestSignalForwarded(t *testing.T) {
	cmd, _ := started(t, "60%", "trap 'exit 3' TERM; while :; do :; done")
	time.Sleep(300 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("slowdown did not end 10 s after SIGTERM")
	}
	if code := cmd.ProcessState.ExitCode(); code != 3 {
		t.Errorf("exit %d, want the script's 3", code)
	}
}

// Nothing of the command's group outlives it: a background child the
// script leaves is killed when the script exits.
func TestNothingLeftBehind(t *testing.T) {
	cmd := exec.Command(binary, "-stop", "20%", "sh", "-c", "sleep 300 & echo $!")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(out)))
	deadline := time.Now().Add(5 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the script's background child %d outlived it", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// alive says whether pid runs (a zombie is dead, only not yet reaped).
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	s := string(b)
	return !strings.Contains(s[strings.LastIndexByte(s, ')'):], ") Z ")
}

// schedstat reads a task's time on a CPU and waiting for one (Linux's
// /proc/PID/schedstat, in ns), and when it was read.
func schedstat(t *testing.T, pid int) (run, wait time.Duration, at time.Time) {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/schedstat", pid))
	at = time.Now()
	if err != nil {
		t.Skipf("no schedstat: %v", err)
	}
	f := strings.Fields(string(b))
	r, _ := strconv.ParseInt(f[0], 10, 64)
	w, _ := strconv.ParseInt(f[1], 10, 64)
	return time.Duration(r), time.Duration(w), at
}

// steal is the time the hypervisor ran something else while this
// machine's CPUs had work, summed over every CPU (the steal column of
// /proc/stat's cpu line, in USER_HZ ticks of 10 ms); 0 where not counted.
func steal() time.Duration {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 9 || f[0] != "cpu" {
		return 0
	}
	n, _ := strconv.ParseInt(f[8], 10, 64)
	return time.Duration(n) * 10 * time.Millisecond
}

// waited is the time every thread of pid has waited for a CPU so far
// (the second field of /proc/PID/task/*/schedstat).
func waited(pid int) time.Duration {
	paths, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	var total time.Duration
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			if f := strings.Fields(string(b)); len(f) >= 2 {
				w, _ := strconv.ParseInt(f[1], 10, 64)
				total += time.Duration(w)
			}
		}
	}
	return total
}

// The slowdown is what it says on a real workload, measured by the kernel
// rather than by a clock that load would move: a shell busy loop never
// sleeps, so the wall time it neither ran nor waited for a CPU is the
// time it was stopped. That share is the asked fraction. On a loaded host
// it may be less by at most the time the loop waited for a CPU (a stop
// sent while it waits takes effect when it gets one), and more by at most
// the time slowdown itself waited for a CPU (a late SIGCONT; the next
// stops make it good, but maybe after the window) and the time the
// hypervisor stole from this virtual machine's CPUs (with paravirtual time
// accounting a stolen tick is neither run nor wait), plus a period at
// either end of the window.
func TestStoppedShareIsAsked(t *testing.T) {
	for _, stop := range []float64{0, 0.10, 0.30} {
		t.Run(fmt.Sprintf("%.0f%%", 100*stop), func(t *testing.T) {
			sd, pid := started(t, fmt.Sprint(stop), "while :; do :; done")
			time.Sleep(200 * time.Millisecond)
			s0, sw0 := steal(), waited(sd.Process.Pid)
			r0, w0, t0 := schedstat(t, pid)
			time.Sleep(3 * time.Second)
			r1, w1, t1 := schedstat(t, pid)
			stolen := steal() - s0 + 20*time.Millisecond // a tick either side
			late := waited(sd.Process.Pid) - sw0
			wall := t1.Sub(t0)
			share := 1 - float64(r1-r0+w1-w0)/float64(wall)
			t.Logf("stopped %.2f%% of %s (ran %s, waited %s; slowdown waited %s, %s stolen from the CPUs)", 100*share, wall, r1-r0, w1-w0, late, stolen)
			if share < stop-0.03-float64(w1-w0)/float64(wall) || share > stop+0.03+float64(late+stolen)/float64(wall) {
				t.Errorf("held stopped %.2f%% of wall time, asked %.0f%%", 100*share, 100*stop)
			}
		})
	}
}
