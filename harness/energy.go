package harness

import (
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/decodebench/decodebench/machine"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// wantsEnergy reports whether the scenario judges energy: its primary or
// any metric it names is energy. Its GPU power is then sampled often
// enough (machine.EnergySampleInterval) for every window of a second or
// more to hold the samples energy needs, and on macOS powermetrics runs.
func wantsEnergy(p scenarios.Policy) bool {
	if isEnergy(p.Primary) {
		return true
	}
	for _, m := range p.Metrics {
		if isEnergy(m.Name) {
			return true
		}
	}
	return false
}

func isEnergy(metric string) bool {
	return metric == schema.EnergyJ || metric == schema.EnergyJPerTok
}

// startPowermetrics runs macOS powermetrics through the campaign when the
// scenario names energy; where it does not, or powermetrics cannot run,
// powerWhy is what every window's energy says instead.
func (c *campaign) startPowermetrics() {
	if runtime.GOOS != "darwin" || c.host.power != nil {
		return
	}
	if !wantsEnergy(c.policy) {
		c.host.powerWhy = "powermetrics: not run (decodebench runs it only for a scenario that names energy_j or energy_j_per_tok)"
		return
	}
	pm, err := machine.StartPowermetrics()
	if err != nil {
		c.host.powerWhy = "powermetrics: " + err.Error()
		c.progress.Printf("energy will not be measured: %s (docs/reference/host-telemetry.md says how to let decodebench run powermetrics)", c.host.powerWhy)
		return
	}
	c.host.power, c.host.powerWhy = pm, ""
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
// the power samples taken through it (the NVIDIA GPUs', where the engine's
// work is, or macOS powermetrics'), else the RAPL counters read around
// the window; otherwise it says why none could.
func windowEnergy(sampled *schema.Energy, before, after []machine.RAPLZone, raplErr error, wall time.Duration) *schema.Energy {
	if sampled != nil && sampled.Unavailable == "" {
		return sampled
	}
	if raplErr == nil && len(before) > 0 {
		return machine.RAPLEnergy(before, after, wall)
	}
	var why []string
	if sampled != nil {
		why = append(why, sampled.Unavailable)
	}
	if raplErr != nil && runtime.GOOS != "darwin" {
		why = append(why, "RAPL: "+raplErr.Error())
	}
	if len(why) == 0 {
		why = append(why, "no energy source on this host")
	}
	return &schema.Energy{Unavailable: strings.Join(why, "; ")}
}
