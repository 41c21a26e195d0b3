package machine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/shirou/gopsutil/v4/cpu"
	"github.com/shirou/gopsutil/v4/load"
	"github.com/shirou/gopsutil/v4/mem"

	"github.com/decodebench/decodebench/schema"
)

// firstInterval is how long a Sampler watches the CPUs when it has no
// earlier sample to compare with. Counters since boot would average over
// hours or days and say nothing about now; 200ms is long enough for a few
// scheduler ticks on every CPU and short enough to take before each run.
const firstInterval = 200 * time.Millisecond

// A Sampler takes load samples. It keeps the CPU times of its last sample so
// that the next one can compute CPU busy % over the time between them
// without sleeping: a sample taken right after a run covers exactly that
// run's wall time when the previous one was taken right before it.
//
// A Sampler is safe for concurrent use; concurrent samples are taken one
// after another.
type Sampler struct {
	mu   sync.Mutex
	prev cpu.TimesStat
	have bool // prev holds an earlier sample
	// last is the CPU busy % of the last interval the counters measured.
	last float64
	// read reads the counters: cpuTimes, or a test's.
	read func(context.Context) (cpu.TimesStat, error)
}

// NewSampler returns a Sampler with no earlier sample.
func NewSampler() *Sampler { return new(Sampler) }

// Sample reports the machine's load now. Taken before and after a measured
// run, it shows whether something else competed for the machine.
//
// The first sample of a Sampler blocks for 200ms to measure CPU busy %.
// Others return at once: one taken so soon after the previous one that the
// CPU time counters have not moved (the next run's sample before it, right
// after the last run's sample after it, with no cooldown between) has no
// time of its own to measure, and states the busy % of the last interval
// the counters measured. It used to wait 200ms for time to measure, which
// held every other run of a campaign without a cooldown by 200ms, a
// cooldown nobody asked for.
func (s *Sampler) Sample(ctx context.Context) (schema.LoadSample, error) {
	s.mu.Lock()
	defer s.mu.Unlock()

	read := s.read
	if read == nil {
		read = cpuTimes
	}
	cur, err := read(ctx)
	if err != nil {
		return schema.LoadSample{}, err
	}
	busy, ok := 0.0, false
	if s.have {
		busy, ok = busyPercent(s.prev, cur)
		if !ok && cpuTotal(cur) == cpuTotal(s.prev) {
			busy, ok, cur = s.last, true, s.prev
		}
	}
	if !ok {
		start := cur
		if err := sleep(ctx, firstInterval); err != nil {
			return schema.LoadSample{}, fmt.Errorf("machine: cpu busy %%: %w", err)
		}
		if cur, err = read(ctx); err != nil {
			return schema.LoadSample{}, err
		}
		if busy, ok = busyPercent(start, cur); !ok {
			return schema.LoadSample{}, fmt.Errorf("machine: cpu busy %%: cpu time counters did not advance in %v", firstInterval)
		}
	}

	avg, err := load.AvgWithContext(ctx)
	if err != nil {
		return schema.LoadSample{}, fmt.Errorf("machine: load average: %w", err)
	}
	vm, err := mem.VirtualMemoryWithContext(ctx)
	if err != nil {
		return schema.LoadSample{}, fmt.Errorf("machine: memory: %w", err)
	}
	swap, err := mem.SwapMemoryWithContext(ctx)
	if err != nil {
		return schema.LoadSample{}, fmt.Errorf("machine: swap: %w", err)
	}

	// Only a sample that is returned becomes the one the next compares with.
	s.prev, s.have, s.last = cur, true, busy
	return schema.LoadSample{
		Time:              time.Now().Round(0),
		Load1:             avg.Load1,
		Load5:             avg.Load5,
		Load15:            avg.Load15,
		CPUBusyPct:        busy,
		MemAvailableBytes: vm.Available,
		SwapUsedBytes:     swap.Used,
	}, nil
}

// cpuTimes returns the CPU time counters summed over all CPUs.
func cpuTimes(ctx context.Context) (cpu.TimesStat, error) {
	ts, err := cpu.TimesWithContext(ctx, false)
	if err != nil {
		return cpu.TimesStat{}, fmt.Errorf("machine: cpu times: %w", err)
	}
	if len(ts) == 0 {
		return cpu.TimesStat{}, errors.New("machine: cpu times: none reported")
	}
	return ts[0], nil
}

// busyPercent returns the busy share of the CPU time that passed between two
// readings of the same counters, 1 − (Δidle + Δiowait) / Δtotal, in percent.
// Waiting for I/O is idle: the CPU was free to run something else.
// Steal counts as busy: a hypervisor gave the time to someone else, and a
// benchmark wants to know.
// ok is false when no time passed between the readings, or less than none
// (counters reset), so that there is nothing to divide by.
func busyPercent(prev, cur cpu.TimesStat) (pct float64, ok bool) {
	total := cpuTotal(cur) - cpuTotal(prev)
	if total <= 0 {
		return 0, false
	}
	idle := (cur.Idle + cur.Iowait) - (prev.Idle + prev.Iowait)
	// Linux may move a little time back out of idle/iowait between
	// readings; clamp instead of reporting more than 100 or less than 0.
	pct = min(max(100*(1-idle/total), 0), 100)
	// The counters tick in hundredths of a second; digits past a hundredth
	// of a percent are float noise from subtracting large totals
	// (2.8e-11 instead of 0).
	return math.Round(pct*100) / 100, true
}

// cpuTotal sums a reading's CPU time. Guest time is left out: Linux counts it
// in user and nice already (proc_stat(5)), and other systems report none.
func cpuTotal(t cpu.TimesStat) float64 {
	return t.User + t.Nice + t.System + t.Idle + t.Iowait + t.Irq + t.Softirq + t.Steal
}

// sleep waits for d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
