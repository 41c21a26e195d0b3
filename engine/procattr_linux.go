//go:build linux

package engine

import (
	"os"
	"syscall"
)

// procAttr puts the engine in its own process group, so that stopping it
// reaches every process it forked (wrapper scripts, workers), and asks the
// kernel to kill it if decodebench dies without cleaning up.
func procAttr() *syscall.SysProcAttr {
	if !parentDeathSignal() {
		return &syscall.SysProcAttr{Setpgid: true}
	}
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// NoPdeathsigEnv, set to 1, turns the parent-death signal off, so that the
// watchdog macOS relies on can be tested on Linux.
const NoPdeathsigEnv = "DECODEBENCH_TEST_NO_PDEATHSIG"

func parentDeathSignal() bool { return os.Getenv(NoPdeathsigEnv) != "1" }
