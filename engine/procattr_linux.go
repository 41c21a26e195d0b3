//go:build linux

package engine

import "syscall"

// procAttr puts the engine in its own process group, so that stopping it
// reaches every process it forked (wrapper scripts, workers), and asks the
// kernel to kill it if decodebench dies without cleaning up.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
