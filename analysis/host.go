package analysis

import (
	"slices"
	"strings"

	"github.com/decodebench/decodebench/schema"
)

// A HostCondition is a machine condition seen around a run that makes the
// measurement less trustworthy. The values are the machine package's
// warning codes.
type HostCondition string

// Host conditions.
const (
	CondOnBattery    HostCondition = "on_battery"
	CondLowPowerMode HostCondition = "low_power_mode"
	CondThermal      HostCondition = "thermal_warning"
	CondCPUSpeed     HostCondition = "cpu_speed_limited"
	CondCPUThermal   HostCondition = "cpu_thermal_trip"
	CondGPUThermal   HostCondition = "gpu_thermal_capping"
	CondGPUPower     HostCondition = "gpu_power_capping"
)

// hostWarnings counts the finished runs that saw each host condition, and
// those started on a host the quiet gate did not find quiet.
// FloodMiB is the engine output, in MiB, inside a measured window past
// which the window was flooded (engine.FloodBytes; analysis imports no
// engine code).
const FloodMiB = 1

func hostWarnings(in Input) []schema.Reason {
	var battery, lowPower, thermal, gpuPower, timedOut, flood, finished int
	var thermalSeen, modes []string
	for _, r := range in.Runs {
		if !r.OK() {
			continue
		}
		finished++
		for _, m := range r.PowerModes {
			if len(modes) == 0 || modes[len(modes)-1] != m {
				modes = append(modes, m)
			}
		}
		if r.QuietTimedOut {
			timedOut++
		}
		if r.OutputFlood {
			flood++
		}
		has := func(c HostCondition) bool { return slices.Contains(r.HostWarnings, c) }
		if has(CondOnBattery) {
			battery++
		}
		if has(CondLowPowerMode) {
			lowPower++
		}
		if has(CondGPUPower) {
			gpuPower++
		}
		hot := false
		for _, c := range []HostCondition{CondThermal, CondCPUSpeed, CondCPUThermal, CondGPUThermal} {
			if has(c) {
				hot = true
				if !slices.Contains(thermalSeen, string(c)) {
					thermalSeen = append(thermalSeen, string(c))
				}
			}
		}
		if hot {
			thermal++
		}
	}
	var out []schema.Reason
	add := func(n int, r schema.Reason) {
		if n > 0 {
			out = append(out, r)
		}
	}
	h := func(n int) schema.HostRuns { return schema.HostRuns{Runs: n, Finished: finished} }
	add(battery, schema.HostOnBattery{HostRuns: h(battery)})
	add(lowPower, schema.HostLowPower{HostRuns: h(lowPower)})
	if len(modes) > 1 {
		out = append(out, schema.HostPowerModeChanged{Modes: strings.Join(modes, ",")})
	}
	slices.Sort(thermalSeen)
	add(thermal, schema.HostThermal{HostRuns: h(thermal), Conditions: strings.Join(thermalSeen, ",")})
	add(gpuPower, schema.HostGPUPowerCap{HostRuns: h(gpuPower)})
	if q := in.Policy.Gates.Quiet; q != nil {
		add(timedOut, schema.QuietTimedOut{HostRuns: h(timedOut), OnBusy: string(q.OnBusy)})
	}
	add(flood, schema.OutputFlood{HostRuns: h(flood), LimitMiB: FloodMiB})
	return out
}
