//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package engine

import (
	"os/exec"
	"testing"
	"time"
)

// The watchdog sleeps until a watched process exits, not polling: it wakes
// when the process ends, and not before.
func TestExitWaiter(t *testing.T) {
	cmd := exec.Command("sleep", "0.3")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go cmd.Wait()
	other := exec.Command("sleep", "30")
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { other.Process.Kill(); other.Wait() }()
	w := newExitWaiter(other.Process.Pid, cmd.Process.Pid)
	if w == nil {
		t.Fatal("no exit waiter on this platform")
	}
	start := time.Now()
	if !w.wait(5 * time.Second) {
		t.Fatal("wait failed")
	}
	if d := time.Since(start); d < 200*time.Millisecond || d > 2*time.Second {
		t.Errorf("woke after %v, want when the 0.3 s process exited", d)
	}
	// The exited process is watched no longer: the next wait runs to its
	// limit instead of returning at once.
	start = time.Now()
	w.wait(300 * time.Millisecond)
	if d := time.Since(start); d < 250*time.Millisecond {
		t.Errorf("second wait returned after %v", d)
	}
}
