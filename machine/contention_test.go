package machine

import (
	"context"
	"math"
	"os/exec"
	"testing"

	"github.com/shirou/gopsutil/v4/cpu"
)

func TestContentionArithmetic(t *testing.T) {
	prev := cpu.TimesStat{User: 100, System: 50, Idle: 850}
	// 10 s of wall time on 2 CPUs = 20 CPU-seconds: 12 busy, 8 idle.
	cur := cpu.TimesStat{User: 110, System: 52, Idle: 858}
	c := contention(prev, cur, 9) // the engine used 9 of the 12 busy seconds
	want := Contention{Busy: 0.6, Measured: 0.45, Others: 0.15}
	if math.Abs(c.Busy-want.Busy) > 1e-9 || math.Abs(c.Measured-want.Measured) > 1e-9 || math.Abs(c.Others-want.Others) > 1e-9 {
		t.Errorf("got %+v, want %+v", c, want)
	}
	// Measured processes cannot account for more than the busy time.
	if c := contention(prev, cur, 50); c.Others != 0 || c.Measured != c.Busy {
		t.Errorf("over-attributed: %+v", c)
	}
	if c := contention(cur, cur, 0); c != (Contention{}) {
		t.Errorf("empty window: %+v", c)
	}
}

// A busy process that is not watched shows as contention.
func TestContentionSeesOthers(t *testing.T) {
	ctx := context.Background()
	m, err := StartContention(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Burn CPU in another process for about half a second.
	if err := exec.Command("sh", "-c", "end=$(($(date +%s%N)+500000000)); while [ $(date +%s%N) -lt $end ]; do :; done").Run(); err != nil {
		t.Skip("no sh:", err)
	}
	c, err := m.Stop(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("contention %+v", c)
	if c.Others <= 0.1 {
		t.Errorf("a busy unwatched process was not seen: %+v", c)
	}
}
