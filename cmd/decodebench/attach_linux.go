//go:build linux

package main

import "golang.org/x/sys/unix"

// denyAttach makes decodebench undumpable: a process of its user without
// CAP_SYS_PTRACE can no longer attach to it, nor read or write its
// memory, which holds the runs its record is made of. The engines it runs
// are such processes (in a pull request's sandbox, the pull request's own
// binary, which could otherwise attach where ptrace_scope is 0 and edit
// the runs before the record is written: a review attached and read).
// A child is dumpable again once it execs.
func denyAttach() error { return unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0) }

// attachDenied reports whether this process is undumpable.
func attachDenied() bool {
	v, err := unix.PrctlRetInt(unix.PR_GET_DUMPABLE, 0, 0, 0, 0)
	return err == nil && v == 0
}
