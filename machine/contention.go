package machine

import (
	"context"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/shirou/gopsutil/v4/cpu"

	"github.com/decodebench/decodebench/schema"
)

// Contention is how much of the machine's CPU time, during a window, went
// to processes other than the ones being measured. A steady background load
// lowers every arm alike, so a spread check alone does not catch it; this
// does.
type Contention struct {
	// Busy is the share of all CPUs' time that was busy (steal included:
	// the hypervisor gave the time to someone else).
	Busy float64 `json:"busy"`
	// Measured is the share used by the watched processes: the engine with
	// every process it started (multi-process engines start workers), and
	// decodebench itself.
	Measured float64 `json:"measured"`
	// Others is Busy − Measured, never below 0.
	Others float64 `json:"others"`
	// EngineProcesses counts the processes counted as the engine's.
	EngineProcesses int `json:"engine_processes,omitempty"`
	// TopOthers are the busiest processes outside the engine's tree,
	// busiest first (at most 3); Cores is the share of one core.
	TopOthers []ProcShare `json:"top_others,omitempty"`
	// GPUOthers are processes outside the engine's tree with a compute
	// context on an NVIDIA GPU at the window's end.
	GPUOthers []GPUProcess `json:"gpu_others,omitempty"`
}

// Record is the persisted form: the busiest process outside the engine's
// tree becomes the culprit, the next ones (TopOthers' rest) follow it.
func (c Contention) Record() *schema.ContentionSample {
	out := &schema.ContentionSample{Busy: c.Busy, Measured: c.Measured, Others: c.Others, EngineProcesses: c.EngineProcesses}
	for i, b := range c.TopOthers {
		p := schema.HostProcess{PID: b.PID, Name: b.Name, Cores: b.Cores}
		if i == 0 {
			out.Culprit = &p
		} else {
			out.Next = append(out.Next, p)
		}
	}
	for _, g := range c.GPUOthers {
		out.GPUOthers = append(out.GPUOthers, schema.HostProcess{PID: g.PID, Name: g.Name, GPUMemMiB: g.UsedMemMiB})
	}
	return out
}

// ContentionMeter measures Contention between Start and Stop.
type ContentionMeter struct {
	roots []int
	procs []Proc
	sys   cpu.TimesStat
	start time.Time
	// end and endProcs are the time and the listing at Stop; othersCPU
	// the CPU seconds the machine spent outside the watched processes.
	end       time.Time
	endProcs  []Proc
	othersCPU float64
	// For tests.
	list func(context.Context) ([]Proc, error)
	gpu  func(context.Context) ([]GPUProcess, error)
}

// StartContention begins a window watching the processes pids (the engine),
// their descendants, and decodebench itself. A pid that is not running is
// an error: without it, the engine's own work would count as contention.
func StartContention(ctx context.Context, pids ...int) (*ContentionMeter, error) {
	return startContention(ctx, ListProcesses, NvidiaProcesses, pids...)
}

func startContention(ctx context.Context, list func(context.Context) ([]Proc, error), gpu func(context.Context) ([]GPUProcess, error), pids ...int) (*ContentionMeter, error) {
	m := &ContentionMeter{roots: append([]int{os.Getpid()}, pids...), list: list, gpu: gpu}
	var err error
	if m.procs, err = list(ctx); err != nil {
		return nil, err
	}
	running := map[int]bool{}
	for _, p := range m.procs {
		running[p.PID] = true
	}
	for _, pid := range pids {
		if !running[pid] {
			return nil, fmt.Errorf("machine: watch process %d: not running", pid)
		}
	}
	if m.sys, err = cpuTimes(ctx); err != nil {
		return nil, err
	}
	m.start = time.Now()
	return m, nil
}

// Stop ends the window.
func (m *ContentionMeter) Stop(ctx context.Context) (Contention, error) {
	return m.stop(ctx, 0)
}

// StopExited ends the window of a watched process that has exited (a
// command-line engine, run once): exitedCPU is the CPU time it used, with
// the processes it waited for (its rusage), which no listing shows once it
// is gone. Without it, the engine's own work would count as contention.
func (m *ContentionMeter) StopExited(ctx context.Context, exitedCPU time.Duration) (Contention, error) {
	return m.stop(ctx, exitedCPU.Seconds())
}

func (m *ContentionMeter) stop(ctx context.Context, exited float64) (Contention, error) {
	procs, err := m.list(ctx)
	if err != nil {
		return Contention{}, err
	}
	m.end, m.endProcs = time.Now(), procs
	sys, err := cpuTimes(ctx)
	if err != nil {
		return Contention{}, err
	}
	wall := time.Since(m.start)
	// A worker that started and ended inside the window is lost; one that
	// ended is still known from the first listing.
	own := tree(append(append([]Proc{}, m.procs...), procs...), m.roots)
	measured := exited
	var others []ProcShare
	for _, s := range shares(m.procs, procs, wall) {
		if own[s.PID] {
			measured += s.Cores * wall.Seconds()
		} else if len(others) < 3 {
			others = append(others, s)
		}
	}
	c := contention(m.sys, sys, measured)
	c.TopOthers = others
	// In CPU seconds of the machine's own totals (every core, whatever
	// cores decodebench may run on).
	m.othersCPU = c.Others * max(cpuTotal(sys)-cpuTotal(m.sys), 0)
	for pid := range own {
		for _, p := range procs {
			if p.PID == pid {
				c.EngineProcesses++
				break
			}
		}
	}
	c.EngineProcesses-- // decodebench itself
	if m.gpu != nil {
		if gps, err := m.gpu(ctx); err == nil {
			for _, g := range gps {
				if !own[g.PID] {
					c.GPUOthers = append(c.GPUOthers, g)
				}
			}
		}
	}
	return c, nil
}

// QuietCredit judges the window a stopped meter measured by the quiet
// gate's rule (cfg's threshold, deny list and conditions, read now) as
// the gate's samples would have, where the meter saw only its two ends:
// no process outside the campaign above the threshold over the window,
// nor more CPU time in it than the threshold allows one of the gate's
// samples (a burst the window's average would hide); the CPU time outside
// the campaign, processes that came and went included, within that too;
// none on the deny list at either end. Quiet, it is credit a later wait
// may count toward its window (QuietConfig.Credit); nil otherwise, or
// before Stop.
func (m *ContentionMeter) QuietCredit(ctx context.Context, cfg QuietConfig) *QuietCredit {
	if m.end.IsZero() {
		return nil
	}
	cfg.defaults()
	wall := m.end.Sub(m.start)
	if len(processBlocks(m.procs, m.endProcs, wall, &cfg)) > 0 || len(processBlocks(m.procs, m.procs, wall, &cfg)) > 0 {
		return nil
	}
	budget := cfg.CPUThreshold * cfg.Interval.Seconds()
	if m.othersCPU > budget {
		return nil
	}
	own := ownProcesses(append(slices.Clone(m.procs), m.endProcs...), cfg.Exclude)
	for _, sh := range shares(m.procs, m.endProcs, wall) {
		if !own[sh.PID] && sh.Cores*wall.Seconds() > budget {
			return nil
		}
	}
	if len(conditionBlocks(cfg.Conditions(ctx), &cfg)) > 0 {
		return nil
	}
	return &QuietCredit{Since: m.start, At: m.end, Procs: m.endProcs}
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
