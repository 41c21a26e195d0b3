package machine

import (
	"context"
	"time"

	"github.com/decodebench/decodebench/schema"
)

// CooldownConfig says when an adaptive cooldown may end.
type CooldownConfig struct {
	Min, Max time.Duration // never shorter than Min, never longer than Max (default 120s)
	// BaselineCPUPct is the machine's CPU busy % measured before the
	// campaign; the cooldown waits for the load to be back within
	// CPUTolerancePct points of it (default 5).
	BaselineCPUPct  float64
	CPUTolerancePct float64
	// BaselineGPUTempC are the NVIDIA GPUs' idle temperatures by index,
	// read before the campaign; each must be back within GPUTempTolerance
	// degrees (default 3). None: GPU temperatures are not waited for.
	BaselineGPUTempC map[int]float64
	GPUTempTolerance float64
	Interval         time.Duration // between samples; default 1s

	// For tests: the clock, the CPU busy % reader (over the time since its
	// previous call) and the conditions reader.
	Clock      Clock
	CPUBusy    func(context.Context) (float64, error)
	Conditions func(context.Context) Conditions
}

// CooldownEnd is what ended a cooldown.
type CooldownEnd string

const (
	CooldownSettled  CooldownEnd = "settled"  // load back at the baseline, thermal nominal
	CooldownMax      CooldownEnd = "max"      // Max reached first
	CooldownCanceled CooldownEnd = "canceled" // the context ended
)

// CooldownResult is how long a cooldown lasted and why it ended.
type CooldownResult struct {
	Waited  time.Duration `json:"waited_ns"`
	EndedBy CooldownEnd   `json:"ended_by"`
	// LastCPUPct is the last CPU busy % read; Pending, at CooldownMax,
	// what had not settled: "cpu", "thermal", "gpu_temp".
	LastCPUPct float64  `json:"last_cpu_pct"`
	Pending    []string `json:"pending,omitempty"`
}

// Record is the persisted form of an adaptive cooldown.
func (r CooldownResult) Record() *schema.CooldownWait {
	return &schema.CooldownWait{Mode: schema.CooldownUntilQuiet, WaitedS: r.Waited.Seconds(), EndedBy: string(r.EndedBy), LastCPUPct: r.LastCPUPct, Pending: r.Pending}
}

// CoolDown waits until the machine is back to how it was before the
// campaign: CPU load near cfg.BaselineCPUPct, every readable thermal state
// nominal (macOS warning levels, Linux thermal zones, no NVIDIA thermal
// clock-event reason), and NVIDIA temperatures near their idle readings;
// at least cfg.Min, at most cfg.Max.
func CoolDown(ctx context.Context, cfg CooldownConfig) CooldownResult {
	if cfg.Max <= 0 {
		cfg.Max = 120 * time.Second
	}
	if cfg.CPUTolerancePct <= 0 {
		cfg.CPUTolerancePct = 5
	}
	if cfg.GPUTempTolerance <= 0 {
		cfg.GPUTempTolerance = 3
	}
	if cfg.Interval <= 0 {
		cfg.Interval = time.Second
	}
	if cfg.Clock == nil {
		cfg.Clock = realClock{}
	}
	if cfg.CPUBusy == nil {
		s := NewSampler()
		cfg.CPUBusy = func(ctx context.Context) (float64, error) {
			l, err := s.Sample(ctx)
			return l.CPUBusyPct, err
		}
		_, _ = cfg.CPUBusy(ctx) // start its interval now
	}
	if cfg.Conditions == nil {
		cfg.Conditions = ReadConditions
	}
	start := cfg.Clock.Now()
	var res CooldownResult
	for {
		if err := cfg.Clock.Sleep(ctx, min(cfg.Interval, max(cfg.Max-cfg.Clock.Now().Sub(start), 0))); err != nil {
			res.EndedBy, res.Waited = CooldownCanceled, cfg.Clock.Now().Sub(start)
			return res
		}
		elapsed := cfg.Clock.Now().Sub(start)
		res.Pending = res.Pending[:0]
		if busy, err := cfg.CPUBusy(ctx); err != nil || busy > cfg.BaselineCPUPct+cfg.CPUTolerancePct {
			res.Pending = append(res.Pending, "cpu")
			res.LastCPUPct = busy
		} else {
			res.LastCPUPct = busy
		}
		c := cfg.Conditions(ctx)
		if nominal, readable := c.ThermalNominal(); readable && !nominal {
			res.Pending = append(res.Pending, "thermal")
		}
		for _, g := range c.GPUs {
			if base, ok := cfg.BaselineGPUTempC[g.Index]; ok && g.TempC != nil && *g.TempC > base+cfg.GPUTempTolerance {
				res.Pending = append(res.Pending, "gpu_temp")
				break
			}
		}
		switch {
		case len(res.Pending) == 0 && elapsed >= cfg.Min:
			res.EndedBy, res.Waited, res.Pending = CooldownSettled, elapsed, nil
			return res
		case elapsed >= cfg.Max:
			res.EndedBy, res.Waited = CooldownMax, elapsed
			return res
		}
	}
}
