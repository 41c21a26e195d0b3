//go:build !unix

package engine

import (
	"errors"
	"net"
)

func setLowWater(net.Conn, int) error {
	return errors.New("SO_RCVLOWAT is not supported on this platform")
}
