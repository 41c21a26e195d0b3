//go:build !unix

package fleetbench

import "time"

func cpuTime() time.Duration { return 0 }
