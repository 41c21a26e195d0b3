package machine

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/shirou/gopsutil/v4/cpu"

	"github.com/decodebench/decodebench/schema"
)

func TestBusyPercent(t *testing.T) {
	// prev is an arbitrary reading; each case adds its deltas to it.
	prev := cpu.TimesStat{CPU: "cpu-total", User: 1000, Nice: 10, System: 300, Idle: 5000, Iowait: 50, Irq: 5, Softirq: 7, Steal: 3, Guest: 20, GuestNice: 1}
	add := func(d cpu.TimesStat) cpu.TimesStat {
		c := prev
		c.User += d.User
		c.Nice += d.Nice
		c.System += d.System
		c.Idle += d.Idle
		c.Iowait += d.Iowait
		c.Irq += d.Irq
		c.Softirq += d.Softirq
		c.Steal += d.Steal
		c.Guest += d.Guest
		c.GuestNice += d.GuestNice
		return c
	}
	tests := []struct {
		name   string
		cur    cpu.TimesStat
		want   float64
		wantOK bool
	}{
		{"all idle", add(cpu.TimesStat{Idle: 16}), 0, true},
		{"all busy", add(cpu.TimesStat{User: 12, System: 4}), 100, true},
		{"half", add(cpu.TimesStat{User: 6, System: 2, Idle: 8}), 50, true},
		{"every busy kind counts", add(cpu.TimesStat{User: 1, Nice: 1, System: 1, Irq: 1, Softirq: 1, Steal: 1, Idle: 2}), 75, true},
		{"iowait is idle", add(cpu.TimesStat{User: 4, Idle: 8, Iowait: 4}), 25, true},
		// Linux counts guest time in user too; counting it again would
		// make a busy VM host look busier than 100%.
		{"guest not counted twice", add(cpu.TimesStat{User: 8, Guest: 8, Idle: 8}), 50, true},
		{"steal is busy", add(cpu.TimesStat{Steal: 4, Idle: 12}), 25, true},
		{"idle ran backwards", add(cpu.TimesStat{User: 10, Idle: -1}), 100, true},
		{"no time passed", prev, 0, false},
		{"counters reset", cpu.TimesStat{User: 1, Idle: 1}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := busyPercent(prev, tt.cur)
			if ok != tt.wantOK || math.Abs(got-tt.want) > 1e-9 {
				t.Errorf("busyPercent() = %v, %v; want %v, %v", got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

// TestSamplerSample samples this machine's real load.
func TestSamplerSample(t *testing.T) {
	ctx := context.Background()
	s := NewSampler()

	start := time.Now()
	first, err := s.Sample(ctx)
	if err != nil {
		t.Fatalf("first Sample: %v", err)
	}
	if d := time.Since(start); d < firstInterval {
		t.Errorf("first Sample took %v, want at least %v to measure CPU busy %%", d, firstInterval)
	}
	checkLoad(t, "first", first)

	// Keep a CPU busy so that the next sample has something to see.
	deadline := time.Now().Add(50 * time.Millisecond)
	for time.Now().Before(deadline) {
	}
	second, err := s.Sample(ctx)
	if err != nil {
		t.Fatalf("second Sample: %v", err)
	}
	checkLoad(t, "second", second)
	if !second.Time.After(first.Time) {
		t.Errorf("second sample at %v, not after first at %v", second.Time, first.Time)
	}
	t.Logf("first:  %+v", first)
	t.Logf("second: %+v", second)
}

func checkLoad(t *testing.T, which string, l schema.LoadSample) {
	t.Helper()
	if l.CPUBusyPct < 0 || l.CPUBusyPct > 100 || math.IsNaN(l.CPUBusyPct) {
		t.Errorf("%s: CPUBusyPct = %v, want 0..100", which, l.CPUBusyPct)
	}
	if l.Load1 < 0 || l.Load5 < 0 || l.Load15 < 0 {
		t.Errorf("%s: load averages %v %v %v, want >= 0", which, l.Load1, l.Load5, l.Load15)
	}
	if l.MemAvailableBytes == 0 {
		t.Errorf("%s: MemAvailableBytes = 0", which)
	}
	if l.Time.IsZero() {
		t.Errorf("%s: Time is zero", which)
	}
}

func TestSamplerCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// With no earlier sample, Sample has to wait, and must not.
	if _, err := NewSampler().Sample(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Sample(canceled) error = %v, want context.Canceled", err)
	}
}

// A sample taken before the counters moved since the previous one (the
// next run's sample before it, right after the last run's after it, with
// no cooldown) returns at once with the last interval's busy %: it used to
// wait 200ms, a cooldown nobody asked for.
func TestSamplerSampleTooSoonDoesNotWait(t *testing.T) {
	readings := []cpu.TimesStat{
		{User: 100, Idle: 100},   // the first sample's start...
		{User: 110, Idle: 110},   // ...and its end, 200ms later: 50% busy
		{User: 190, Idle: 130},   // after a run: 80% busy
		{User: 190, Idle: 130},   // at once after it: nothing moved
		{User: 190, Idle: 130},   // again
		{User: 200.5, Idle: 140}, // later: 50% busy over the interval since the last move
		{User: 200.5, Idle: 140}, // nothing moved
	}
	s := &Sampler{read: func(context.Context) (cpu.TimesStat, error) {
		r := readings[0]
		readings = readings[1:]
		return r, nil
	}}
	for i, want := range []float64{50, 80, 80, 80, 51.22, 51.22} {
		start := time.Now()
		l, err := s.Sample(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if l.CPUBusyPct != want {
			t.Errorf("sample %d: %v%% busy, want %v%%", i+1, l.CPUBusyPct, want)
		}
		if took := time.Since(start); i > 0 && took >= firstInterval {
			t.Errorf("sample %d took %v: it waited for the counters to move", i+1, took)
		}
	}
	if len(readings) != 0 {
		t.Errorf("%d readings left unread", len(readings))
	}
}
