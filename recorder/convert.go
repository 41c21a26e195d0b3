package recorder

import (
	"time"

	"github.com/decodebench/decodebench/machine"
	"github.com/decodebench/decodebench/schema"
)

// ContentionFrom converts a contention measurement.
func ContentionFrom(c machine.Contention) *schema.ContentionSample {
	out := &schema.ContentionSample{Busy: c.Busy, Measured: c.Measured, Others: c.Others, EngineProcesses: c.EngineProcesses}
	if b, ok := c.Busiest(); ok {
		out.Culprit = &schema.HostProcess{PID: b.PID, Name: b.Name, Cores: b.Cores}
	}
	for _, g := range c.GPUOthers {
		out.GPUOthers = append(out.GPUOthers, schema.HostProcess{PID: g.PID, Name: g.Name, GPUMemMiB: g.UsedMemMiB})
	}
	return out
}

// QuietFrom converts what the quiet gate waited for.
func QuietFrom(q machine.QuietResult) *schema.QuietWait {
	out := &schema.QuietWait{WaitedS: q.Waited.Seconds(), EndedBy: string(q.EndedBy)}
	if len(q.Held) > 0 {
		out.Held = map[string]int{}
		for k, v := range q.Held {
			out.Held[string(k)] = v
		}
	}
	for _, c := range q.Culprits {
		out.Culprits = append(out.Culprits, schema.HostProcess{PID: c.PID, Name: c.Name, Reason: string(c.Reason), Cores: c.Cores})
	}
	return out
}

// CooldownFrom converts an adaptive cooldown's result.
func CooldownFrom(c machine.CooldownResult) *schema.CooldownWait {
	return &schema.CooldownWait{Mode: "until_quiet", WaitedS: c.Waited.Seconds(), EndedBy: string(c.EndedBy), LastCPUPct: c.LastCPUPct, Pending: c.Pending}
}

// ConditionsFrom converts the machine's conditions at one moment.
func ConditionsFrom(c machine.Conditions) *schema.HostConditions {
	out := &schema.HostConditions{Time: c.Time.Round(0), Power: string(c.Power), BatteryPercent: c.BatteryPercent, LowPowerMode: c.LowPowerMode,
		ThermalWarningLevel: c.ThermalWarningLevel, PerformanceWarningLevel: c.PerformanceWarningLevel, CPUSpeedLimit: c.CPUSpeedLimit, MemoryFreePct: c.MemoryFreePct}
	if f := c.CPUFreqMHz; f != nil {
		out.CPUFreqMeanMHz = &f.Mean
	}
	for _, z := range c.ThermalZones {
		if out.MaxThermalZoneC == nil || z.TempC > *out.MaxThermalZoneC {
			t := z.TempC
			out.MaxThermalZoneC = &t
		}
	}
	for _, g := range c.GPUs {
		out.GPUs = append(out.GPUs, schema.GPUState{Index: g.Index, SMClockMHz: g.SMClockMHz, MemClockMHz: g.MemClockMHz, TempC: g.TempC, PowerW: g.PowerW,
			UtilPct: g.UtilPct, MemUsedMiB: g.MemUsedMiB, Reasons: g.Reasons})
	}
	for _, w := range c.Warnings() {
		out.Warnings = append(out.Warnings, schema.HostWarning{Code: string(w.Code), Value: w.Value})
	}
	return out
}

// GPUWindowFrom converts the in-window samples of a run.
func GPUWindowFrom(interval time.Duration, samples []machine.GPUSample) *schema.GPUWindow {
	out := &schema.GPUWindow{IntervalS: interval.Seconds()}
	sums, warnings := machine.SummarizeGPUWindow(samples)
	for _, g := range sums {
		out.GPUs = append(out.GPUs, schema.GPUWindowState{Index: g.Index, Samples: g.Samples, SMClockMinMHz: g.SMClockMinMHz, SMClockMaxMHz: g.SMClockMaxMHz,
			TempMaxC: g.TempMaxC, PowerMaxW: g.PowerMaxW, UtilMaxPct: g.UtilMaxPct, MemUsedMaxMiB: g.MemUsedMaxMiB, Reasons: g.Reasons})
	}
	for _, w := range warnings {
		out.Warnings = append(out.Warnings, schema.HostWarning{Code: string(w.Code), Value: w.Value})
	}
	if len(samples) == 0 {
		out.Unavailable = "no sample fell inside the window (shorter than the sampling interval)"
	}
	return out
}

// PlatformFrom converts the platform telemetry and the conditions before
// the campaign.
func PlatformFrom(t machine.Telemetry, c *machine.Conditions) *schema.PlatformInfo {
	out := &schema.PlatformInfo{}
	if m := t.Mac; m != nil {
		out.Chip, out.ModelIdentifier, out.ModelName = m.Chip, m.ModelIdentifier, m.ModelName
		out.PerformanceCores, out.EfficiencyCores, out.GPUCores = m.PerformanceCores, m.EfficiencyCores, m.GPUCores
		out.GPUGeneration, out.GPUArchitecture = m.GPUGeneration, m.GPUArchitecture
		out.OSName, out.OSVersion, out.OSBuild = m.OSName, m.OSVersion, m.OSBuild
	}
	if l := t.Linux; l != nil {
		out.Governors = l.Governors
	}
	un := t.Unavailable
	if c != nil {
		out.Conditions = ConditionsFrom(*c)
		un = append(append([]machine.Unavailable{}, un...), c.Unavailable...)
	}
	for _, u := range un {
		out.Unavailable = append(out.Unavailable, u.Source+": "+u.Reason)
	}
	return out
}
