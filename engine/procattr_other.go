//go:build !linux && !windows

package engine

import "syscall"

// procAttr puts the engine in its own process group, so that stopping it
// reaches every process it forked. Parent-death signals are Linux-only; on
// macOS the deferred cleanup and signal handling in the harness stop the
// group.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
