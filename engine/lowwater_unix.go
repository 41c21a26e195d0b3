//go:build unix

package engine

import (
	"errors"
	"net"
	"syscall"

	"golang.org/x/sys/unix"
)

// setLowWater sets the socket's receive low-water mark: a read, or the
// poller's readiness, waits for n bytes, the end of the stream or an error.
func setLowWater(c net.Conn, n int) error {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return errors.New("not a socket")
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) {
		serr = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_RCVLOWAT, n)
	}); err != nil {
		return err
	}
	if serr != nil {
		return &net.OpError{Op: "setsockopt SO_RCVLOWAT", Net: "tcp", Err: serr}
	}
	return nil
}
