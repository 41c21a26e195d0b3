//go:build linux

package main

import "syscall"

// procAttr puts the command in a group of its own (the group the stops
// reach, which slowdown is not in) and has the kernel kill it if slowdown
// dies without cleaning up.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
