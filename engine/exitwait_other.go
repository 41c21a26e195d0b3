//go:build unix && !linux && !darwin && !freebsd && !netbsd && !openbsd && !dragonfly

package engine

import "time"

// exitWaiter: no way here to sleep until a process exits; the watchdog
// polls.
type exitWaiter struct{}

func newExitWaiter(...int) *exitWaiter { return nil }

func (*exitWaiter) wait(time.Duration) bool { return false }
