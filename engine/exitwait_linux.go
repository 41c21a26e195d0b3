package engine

import (
	"time"

	"golang.org/x/sys/unix"
)

// exitWaiter sleeps until one of the processes it watches exits, through
// pidfds (Linux 5.3 and later): a pidfd becomes readable when its process
// exits.
type exitWaiter struct {
	fds []int
}

// newExitWaiter watches the parent and the engine's leader; nil where
// pidfds are not available.
func newExitWaiter(pids ...int) *exitWaiter {
	w := &exitWaiter{}
	for _, pid := range pids {
		fd, err := unix.PidfdOpen(pid, 0)
		if err != nil {
			w.close()
			return nil
		}
		w.fds = append(w.fds, fd)
	}
	return w
}

// wait returns when a watched process exits or after max; false when the
// waiting itself failed. A process that exited is watched no longer.
func (w *exitWaiter) wait(max time.Duration) bool {
	if len(w.fds) == 0 {
		time.Sleep(max)
		return true
	}
	pfds := make([]unix.PollFd, len(w.fds))
	for i, fd := range w.fds {
		pfds[i] = unix.PollFd{Fd: int32(fd), Events: unix.POLLIN}
	}
	// A signal (the Go runtime's own preemption among them) interrupts
	// the poll: it goes on for what is left of max, or the watchdog
	// would wake at every signal (and the wait return long before max).
	deadline := time.Now().Add(max)
	n, err := unix.Poll(pfds, int(max.Milliseconds()))
	for left := time.Until(deadline); err == unix.EINTR && left > 0; left = time.Until(deadline) {
		n, err = unix.Poll(pfds, int(left.Milliseconds()))
	}
	if err == unix.EINTR {
		return true
	}
	if err != nil {
		return false
	}
	if n > 0 {
		var keep []int
		for i, p := range pfds {
			if p.Revents != 0 {
				unix.Close(w.fds[i])
				continue
			}
			keep = append(keep, w.fds[i])
		}
		w.fds = keep
	}
	return true
}

func (w *exitWaiter) close() {
	for _, fd := range w.fds {
		unix.Close(fd)
	}
	w.fds = nil
}
