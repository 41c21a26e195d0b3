package machine

import "syscall"

// samplerProcAttr asks the kernel to end a sampler that outlives
// decodebench (it would sample forever).
func samplerProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
