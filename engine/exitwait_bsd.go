//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package engine

import (
	"time"

	"golang.org/x/sys/unix"
)

// exitWaiter sleeps until one of the processes it watches exits, through
// kqueue's EVFILT_PROC NOTE_EXIT.
type exitWaiter struct {
	kq      int
	watched int
}

// newExitWaiter watches the parent and the engine's leader; nil where
// kqueue refuses (a process already gone: the caller's next look sees it).
func newExitWaiter(pids ...int) *exitWaiter {
	kq, err := unix.Kqueue()
	if err != nil {
		return nil
	}
	changes := make([]unix.Kevent_t, len(pids))
	for i, pid := range pids {
		unix.SetKevent(&changes[i], pid, unix.EVFILT_PROC, unix.EV_ADD|unix.EV_ONESHOT)
		changes[i].Fflags = unix.NOTE_EXIT
	}
	if _, err := unix.Kevent(kq, changes, nil, nil); err != nil {
		unix.Close(kq)
		return nil
	}
	return &exitWaiter{kq: kq, watched: len(pids)}
}

// wait returns when a watched process exits or after max; false when the
// waiting itself failed. A process that exited is watched no longer
// (EV_ONESHOT).
func (w *exitWaiter) wait(max time.Duration) bool {
	if w.watched == 0 {
		time.Sleep(max)
		return true
	}
	// A signal interrupts the wait: it goes on for what is left of max
	// (exitwait_linux.go says why).
	deadline := time.Now().Add(max)
	ts := unix.NsecToTimespec(max.Nanoseconds())
	events := make([]unix.Kevent_t, 2)
	n, err := unix.Kevent(w.kq, nil, events, &ts)
	for err == unix.EINTR && time.Until(deadline) > 0 {
		ts = unix.NsecToTimespec(time.Until(deadline).Nanoseconds())
		n, err = unix.Kevent(w.kq, nil, events, &ts)
	}
	if err == unix.EINTR {
		return true
	}
	if err != nil {
		return false
	}
	w.watched -= n
	return true
}
