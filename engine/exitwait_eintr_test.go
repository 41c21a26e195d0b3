//go:build linux

package engine

import (
	"os/exec"
	"runtime"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// A signal to the waiting thread (the Go runtime's own preemption signal,
// SIGURG, here sent on purpose) interrupts its poll: the wait goes on for
// what is left of its limit. It returned at once, and TestExitWaiter
// failed now and then on a loaded host ("second wait returned after
// 30µs").
func TestExitWaiterSurvivesSignals(t *testing.T) {
	other := exec.Command("sleep", "30")
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { other.Process.Kill(); other.Wait() }()
	w := newExitWaiter(other.Process.Pid)
	if w == nil {
		t.Skip("no pidfd on this kernel")
	}
	defer w.close()
	tid := make(chan int, 1)
	took := make(chan time.Duration, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		tid <- unix.Gettid()
		start := time.Now()
		w.wait(400 * time.Millisecond)
		took <- time.Since(start)
	}()
	id := <-tid
	for {
		select {
		case d := <-took:
			if d < 350*time.Millisecond {
				t.Errorf("the wait returned after %v, before its 400 ms", d)
			}
			return
		case <-time.After(20 * time.Millisecond):
			_ = unix.Tgkill(unix.Getpid(), id, unix.SIGURG)
		}
	}
}
