package e2e

import (
	"strconv"
	"syscall"
)

func syscallKill(pid string) {
	if n, err := strconv.Atoi(pid); err == nil {
		syscall.Kill(n, syscall.SIGKILL)
	}
}
