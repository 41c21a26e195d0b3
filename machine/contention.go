package machine

import (
	"context"
	"fmt"
	"os"

	"github.com/shirou/gopsutil/v4/cpu"
	"github.com/shirou/gopsutil/v4/process"
)

// Contention is how much of the machine's CPU time, during a window, went
// to processes other than the ones being measured. A steady background load
// lowers every arm alike, so a spread check alone does not catch it; this
// does.
type Contention struct {
	// Busy is the share of all CPUs' time that was busy (steal included:
	// the hypervisor gave the time to someone else).
	Busy float64 `json:"busy"`
	// Measured is the share used by the watched processes (the engine and
	// decodebench itself).
	Measured float64 `json:"measured"`
	// Others is Busy − Measured, never below 0.
	Others float64 `json:"others"`
}

// ContentionMeter measures Contention between Start and Stop.
type ContentionMeter struct {
	procs []*process.Process
	sys   cpu.TimesStat
	own   float64
}

// StartContention begins a window watching the processes pids (the engine)
// and decodebench itself. A pid that cannot be watched is an error: without
// it, the engine's own work would count as contention.
func StartContention(ctx context.Context, pids ...int) (*ContentionMeter, error) {
	m := &ContentionMeter{}
	for _, pid := range append([]int{os.Getpid()}, pids...) {
		p, err := process.NewProcessWithContext(ctx, int32(pid))
		if err != nil {
			return nil, fmt.Errorf("machine: watch process %d: %w", pid, err)
		}
		m.procs = append(m.procs, p)
	}
	var err error
	if m.sys, err = cpuTimes(ctx); err != nil {
		return nil, err
	}
	if m.own, err = m.procSeconds(ctx); err != nil {
		return nil, err
	}
	return m, nil
}

// Stop ends the window.
func (m *ContentionMeter) Stop(ctx context.Context) (Contention, error) {
	own, err := m.procSeconds(ctx)
	if err != nil {
		return Contention{}, err
	}
	sys, err := cpuTimes(ctx)
	if err != nil {
		return Contention{}, err
	}
	return contention(m.sys, sys, own-m.own), nil
}

func (m *ContentionMeter) procSeconds(ctx context.Context) (float64, error) {
	sum := 0.0
	for _, p := range m.procs {
		t, err := p.TimesWithContext(ctx)
		if err != nil {
			return 0, fmt.Errorf("machine: cpu times of process %d: %w", p.Pid, err)
		}
		sum += t.User + t.System
	}
	return sum, nil
}

// contention computes the shares from two system readings and the CPU
// seconds the watched processes used in between.
func contention(prev, cur cpu.TimesStat, measured float64) Contention {
	total := cpuTotal(cur) - cpuTotal(prev)
	if total <= 0 {
		return Contention{}
	}
	idle := (cur.Idle + cur.Iowait) - (prev.Idle + prev.Iowait)
	busy := min(max(total-idle, 0), total)
	c := Contention{Busy: busy / total, Measured: min(max(measured, 0), busy) / total}
	c.Others = max(c.Busy-c.Measured, 0)
	return c
}
