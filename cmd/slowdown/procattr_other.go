//go:build unix && !linux

package main

import "syscall"

// procAttr puts the command in a group of its own (the group the stops
// reach, which slowdown is not in). There is no parent-death signal here:
// a slowdown killed with SIGKILL leaves the command running.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
