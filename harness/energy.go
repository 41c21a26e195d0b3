package harness

import (
	"fmt"
	"runtime"
	"time"

	"github.com/decodebench/decodebench/machine"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// wantsEnergy reports whether the scenario judges energy: its GPU power
// is then sampled often enough (machine.EnergySampleInterval) for every
// window of a second or more to hold the samples energy needs.
func wantsEnergy(p scenarios.Policy) bool {
	return p.Primary == schema.EnergyJ || p.Primary == schema.EnergyJPerTok
}

// readRAPL reads the host's RAPL counters; an error where it has none or
// may not read them (never an error that stops the run).
func (c *campaign) readRAPL() ([]machine.RAPLZone, error) {
	if runtime.GOOS != "linux" {
		return nil, fmt.Errorf("no RAPL on %s", runtime.GOOS)
	}
	return machine.ReadRAPL(machine.RAPLRoot)
}

// windowEnergy picks the best source the host has for the measured window:
// the NVIDIA GPUs' power samples when they were sampled (the engine's work
// is there), else the RAPL counters read around the window; otherwise it
// says why neither could.
func windowEnergy(gpu *schema.Energy, before, after []machine.RAPLZone, raplErr error, wall time.Duration) *schema.Energy {
	if gpu != nil && gpu.Unavailable == "" {
		return gpu
	}
	if raplErr == nil && len(before) > 0 {
		return machine.RAPLEnergy(before, after, wall)
	}
	why := ""
	if gpu != nil {
		why = "GPU power: " + gpu.Unavailable + "; "
	}
	switch runtime.GOOS {
	case "darwin":
		why += "powermetrics needs root and decodebench does not run it"
	default:
		why += "RAPL: " + raplErr.Error()
	}
	return &schema.Energy{Unavailable: why}
}

// energyMetrics puts a measured window's energy, and its energy per
// generated token, into the run's metrics.
func energyMetrics(run *schema.Run) {
	e := run.Energy
	if e == nil || e.Unavailable != "" || e.Joules <= 0 {
		return
	}
	run.Metrics[schema.EnergyJ] = e.Joules
	if run.Tokens > 0 {
		run.Metrics[schema.EnergyJPerTok] = e.Joules / float64(run.Tokens)
	}
}
