package machine

import "syscall"

// samplerProcAttr asks the kernel to end a sampler that outlives
// decodebench (it would sample forever).
func samplerProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// powermetricsProcAttr runs a power sampler in a session of its own (no
// terminal for sudo to prompt on, one group to end), ended by the kernel
// if it outlives decodebench.
func powermetricsProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
}
