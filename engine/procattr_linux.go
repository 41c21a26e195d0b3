//go:build linux

package engine

import (
	"os"
	"syscall"
)

// procAttr puts the engine in a session of its own, and so in a process
// group of its own, so that stopping it reaches every process it forked
// (wrapper scripts, workers), and asks the kernel to kill it if
// decodebench dies without cleaning up. A session, not only a group: a
// process may join only a group of its own session, and a grandchild
// that joined decodebench's group was neither in the engine's group nor
// found as adopted, and outlived the campaign.
func procAttr() *syscall.SysProcAttr {
	if !parentDeathSignal() {
		return &syscall.SysProcAttr{Setsid: true}
	}
	return &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
}

// NoPdeathsigEnv, set to 1, turns the parent-death signal off, so that the
// watchdog macOS relies on can be tested on Linux.
const NoPdeathsigEnv = "DECODEBENCH_TEST_NO_PDEATHSIG"

func parentDeathSignal() bool { return os.Getenv(NoPdeathsigEnv) != "1" }
