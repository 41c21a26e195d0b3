//go:build !linux

package machine

import "syscall"

// samplerProcAttr: there is no parent-death signal here; NVIDIA samplers
// run on Linux hosts.
func samplerProcAttr() *syscall.SysProcAttr { return nil }
