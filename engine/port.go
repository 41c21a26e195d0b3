package engine

import (
	"fmt"
	"net"
)

// FreePort asks the kernel for a free loopback TCP port. The port is free
// when this returns; another process could still take it before the engine
// binds, which Start detects and retries.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("choose a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
