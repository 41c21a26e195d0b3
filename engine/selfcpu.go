//go:build unix

package engine

import (
	"time"

	"golang.org/x/sys/unix"
)

// selfCPU is the CPU time (user + system, every thread) this process has
// used so far, from getrusage(RUSAGE_SELF); -1 where it cannot be read.
// The difference of two readings is decodebench's own footprint between
// them.
func selfCPU() time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
