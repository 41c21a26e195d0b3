//go:build unix

package machine

import (
	"testing"
	"time"
)

func TestSelfCPUCountsBusyWork(t *testing.T) {
	a := SelfCPU()
	if a < 0 {
		t.Fatal("rusage not readable")
	}
	deadline := time.Now().Add(150 * time.Millisecond)
	x := 0
	for time.Now().Before(deadline) {
		x++
	}
	b := SelfCPU()
	if d := b - a; d < 50*time.Millisecond {
		t.Errorf("150ms of busy work counted as %v of CPU (%d)", d, x)
	}
	time.Sleep(200 * time.Millisecond)
	if d := SelfCPU() - b; d > 50*time.Millisecond {
		t.Errorf("200ms asleep counted as %v of CPU", d)
	}
}
