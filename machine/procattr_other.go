//go:build !linux

package machine

import "syscall"

// samplerProcAttr: there is no parent-death signal here; NVIDIA samplers
// run on Linux hosts.
func samplerProcAttr() *syscall.SysProcAttr { return nil }

// powermetricsProcAttr runs powermetrics in a session of its own: no
// terminal for sudo to prompt on, one group to end. Without a parent-death
// signal, its output pipe ends it if decodebench dies (SIGPIPE).
func powermetricsProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true}
}
