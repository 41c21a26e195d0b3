//go:build unix

package engine

import (
	"testing"
	"time"
)

// Busy work is counted and sleep is not. On a loaded host 150 ms of wall
// time may buy a busy loop little CPU, so the loop runs until rusage says
// it used 100 ms, which must happen well within a generous deadline.
func TestSelfCPUCountsBusyWork(t *testing.T) {
	a := selfCPU()
	if a < 0 {
		t.Fatal("rusage not readable")
	}
	deadline := time.Now().Add(20 * time.Second)
	x := 0
	for selfCPU()-a < 100*time.Millisecond {
		for range 100000 {
			x++
		}
		if time.Now().After(deadline) {
			t.Fatalf("20 s of busy work counted as %v of CPU (%d)", selfCPU()-a, x)
		}
	}
	b := selfCPU()
	time.Sleep(200 * time.Millisecond)
	if d := selfCPU() - b; d > 50*time.Millisecond {
		t.Errorf("200ms asleep counted as %v of CPU", d)
	}
}
