//go:build !linux && !windows

package engine

import "syscall"

// procAttr puts the engine in a session of its own, and so in a process
// group of its own (procattr_linux.go says why a session), so that
// stopping it reaches every process it forked. Parent-death signals are
// Linux-only; on macOS a watchdog process (watchdog.go) ends the group
// when decodebench dies, and the deferred cleanup and signal handling
// stop it otherwise.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true}
}

func parentDeathSignal() bool { return false }
