package machine

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/decodebench/decodebench/schema"
)

// Telemetry is what the platform tells about the machine beyond Identity:
// facts that do not change during a campaign. Every part is optional; what
// could not be read is listed in Unavailable, never an error.
type Telemetry struct {
	OS          string          `json:"os"` // runtime.GOOS
	Mac         *MacTelemetry   `json:"mac,omitempty"`
	Linux       *LinuxTelemetry `json:"linux,omitempty"`
	Unavailable []Unavailable   `json:"unavailable,omitempty"`
}

// Conditions are the live state of the machine at one moment: power,
// thermal state and, with NVIDIA GPUs, their clocks. Taken before and after
// a run they show whether the machine ran as it should. Every field is
// optional: nil or empty means it could not be read on this machine, and
// Unavailable says why.
type Conditions struct {
	Time time.Time `json:"time"`

	Power          PowerSource `json:"power_source,omitempty"`    // "ac", "battery", "" where unknown
	BatteryPercent *int        `json:"battery_percent,omitempty"` // charge, where there is a battery
	BatteryState   string      `json:"battery_state,omitempty"`   // as pmset says it: "charging", "discharging", "AC attached; not charging"
	LowPowerMode   *bool       `json:"low_power_mode,omitempty"`
	// PowerMode is macOS's energy mode (pmset -g powermode): PowerModeLow,
	// PowerModeAutomatic or PowerModeHigh; "" where macOS does not say.
	PowerMode string `json:"power_mode,omitempty"`

	// ThermalWarningLevel and PerformanceWarningLevel are macOS's recorded
	// levels (pmset -g therm); 0 where macOS says none has been recorded.
	ThermalWarningLevel     *int `json:"thermal_warning_level,omitempty"`
	PerformanceWarningLevel *int `json:"performance_warning_level,omitempty"`
	// CPUSpeedLimit is the percentage of full CPU speed macOS allows
	// (pmset -g therm, CPU_Speed_Limit); nil where none is recorded.
	CPUSpeedLimit *int `json:"cpu_speed_limit_pct,omitempty"`
	// MemoryFreePct is macOS's system-wide memory free percentage
	// (memory_pressure); low values mean memory pressure.
	MemoryFreePct *int `json:"memory_free_pct,omitempty"`

	// Linux: CPU frequencies now and thermal zones, where sysfs has them.
	CPUFreqMHz   *FreqRange    `json:"cpu_freq_mhz,omitempty"`
	ThermalZones []ThermalZone `json:"thermal_zones,omitempty"`

	GPUs []GPUConditions `json:"gpus,omitempty"` // NVIDIA, one per GPU

	Unavailable []Unavailable `json:"unavailable,omitempty"`
}

// PowerSource is where the machine draws power from.
type PowerSource string

const (
	PowerUnknown PowerSource = ""
	PowerAC      PowerSource = "ac"
	PowerBattery PowerSource = "battery"
)

// A WarningCode names a condition that makes a measurement less trustworthy.
type WarningCode string

const (
	WarnOnBattery      WarningCode = "on_battery"
	WarnLowPowerMode   WarningCode = "low_power_mode"
	WarnThermalWarning WarningCode = "thermal_warning"     // macOS thermal or performance warning level above 0
	WarnCPUSpeedLimit  WarningCode = "cpu_speed_limited"   // macOS CPU_Speed_Limit below 100
	WarnCPUThermal     WarningCode = "cpu_thermal_trip"    // a Linux thermal zone at or above its first passive trip
	WarnGPUThermalCap  WarningCode = "gpu_thermal_capping" // an NVIDIA thermal clock-event reason is active
	WarnGPUPowerCap    WarningCode = "gpu_power_capping"   // an NVIDIA power clock-event reason is active
)

// A Warning is one code with the value that raised it.
type Warning struct {
	Code WarningCode `json:"code"`
	// Value is the reading behind the code: the level, the percentage,
	// the GPU index with the active reasons. Machine-readable, no prose.
	Value string `json:"value,omitempty"`
}

// String is the Warning for a person to read.
func (w Warning) String() string {
	text := map[WarningCode]string{
		WarnOnBattery:      "running on battery",
		WarnLowPowerMode:   "low-power mode is on",
		WarnThermalWarning: "macOS reports a thermal warning",
		WarnCPUSpeedLimit:  "macOS limits the CPU speed",
		WarnCPUThermal:     "a CPU thermal zone is at its trip point",
		WarnGPUThermalCap:  "GPU clocks are capped for temperature",
		WarnGPUPowerCap:    "GPU clocks are capped for power",
	}[w.Code]
	if text == "" {
		text = string(w.Code)
	}
	if w.Value != "" {
		return text + " (" + w.Value + ")"
	}
	return text
}

// Warnings lists the conditions that make a measurement less trustworthy,
// in a fixed order. Readings that are unavailable raise none.
func (c Conditions) Warnings() []Warning {
	var ws []Warning
	if c.Power == PowerBattery {
		v := ""
		if c.BatteryPercent != nil {
			v = fmt.Sprintf("%d%%", *c.BatteryPercent)
		}
		ws = append(ws, Warning{Code: WarnOnBattery, Value: v})
	}
	if c.LowPowerMode != nil && *c.LowPowerMode {
		ws = append(ws, Warning{Code: WarnLowPowerMode})
	}
	if c.ThermalWarningLevel != nil && *c.ThermalWarningLevel > 0 {
		ws = append(ws, Warning{Code: WarnThermalWarning, Value: fmt.Sprintf("thermal=%d", *c.ThermalWarningLevel)})
	}
	if c.PerformanceWarningLevel != nil && *c.PerformanceWarningLevel > 0 {
		ws = append(ws, Warning{Code: WarnThermalWarning, Value: fmt.Sprintf("performance=%d", *c.PerformanceWarningLevel)})
	}
	if c.CPUSpeedLimit != nil && *c.CPUSpeedLimit < 100 {
		ws = append(ws, Warning{Code: WarnCPUSpeedLimit, Value: fmt.Sprintf("%d%%", *c.CPUSpeedLimit)})
	}
	for _, z := range c.ThermalZones {
		if z.Hot() {
			ws = append(ws, Warning{Code: WarnCPUThermal, Value: fmt.Sprintf("%s=%.1fC", z.Type, z.TempC)})
		}
	}
	for _, g := range c.GPUs {
		if g.ThermalCapped() {
			ws = append(ws, Warning{Code: WarnGPUThermalCap, Value: fmt.Sprintf("gpu%d:%s", g.Index, strings.Join(g.Reasons, "+"))})
		}
		if g.PowerCapped() {
			ws = append(ws, Warning{Code: WarnGPUPowerCap, Value: fmt.Sprintf("gpu%d:%s", g.Index, strings.Join(g.Reasons, "+"))})
		}
	}
	return ws
}

// Record is the persisted summary: the hottest thermal zone, the mean CPU
// frequency and the warnings.
func (c Conditions) Record() *schema.HostConditions {
	out := &schema.HostConditions{Time: c.Time.Round(0), Power: string(c.Power), BatteryPercent: c.BatteryPercent, LowPowerMode: c.LowPowerMode, PowerMode: c.PowerMode,
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
	out.Warnings = hostWarnings(c.Warnings())
	return out
}

func hostWarnings(ws []Warning) []schema.HostWarning {
	var out []schema.HostWarning
	for _, w := range ws {
		out = append(out, schema.HostWarning{Code: string(w.Code), Value: w.Value})
	}
	return out
}

// Record is the persisted platform telemetry, with the conditions before
// the campaign and what neither could read.
func (t Telemetry) Record(c Conditions) *schema.PlatformInfo {
	out := &schema.PlatformInfo{Conditions: c.Record()}
	if m := t.Mac; m != nil {
		out.Chip, out.ModelIdentifier, out.ModelName = m.Chip, m.ModelIdentifier, m.ModelName
		out.PerformanceCores, out.EfficiencyCores, out.GPUCores = m.PerformanceCores, m.EfficiencyCores, m.GPUCores
		out.GPUGeneration, out.GPUArchitecture = m.GPUGeneration, m.GPUArchitecture
		out.GPUGenerationSource, out.GPUClass = m.GPUGenerationSource, m.GPUClass
		out.OSName, out.OSVersion, out.OSBuild = m.OSName, m.OSVersion, m.OSBuild
	}
	if l := t.Linux; l != nil {
		out.Governors = l.Governors
	}
	for _, u := range append(append([]Unavailable{}, t.Unavailable...), c.Unavailable...) {
		out.Unavailable = append(out.Unavailable, u.Source+": "+u.Reason)
	}
	return out
}

// ThermalNominal says whether every readable thermal source is nominal,
// and whether any was readable at all.
func (c Conditions) ThermalNominal() (nominal, readable bool) {
	nominal = true
	if c.ThermalWarningLevel != nil {
		readable = true
		nominal = nominal && *c.ThermalWarningLevel == 0
	}
	if c.PerformanceWarningLevel != nil {
		readable = true
		nominal = nominal && *c.PerformanceWarningLevel == 0
	}
	if c.CPUSpeedLimit != nil {
		readable = true
		nominal = nominal && *c.CPUSpeedLimit >= 100
	}
	for _, z := range c.ThermalZones {
		if z.TripC > 0 {
			readable = true
			nominal = nominal && !z.Hot()
		}
	}
	for _, g := range c.GPUs {
		if g.Reasons != nil || g.ReasonsMask != nil {
			readable = true
			nominal = nominal && !g.ThermalCapped()
		}
	}
	return nominal, readable
}

// A platform reads the telemetry and conditions of one operating system.
type platform interface {
	telemetry(ctx context.Context, run runner, t *Telemetry)
	conditions(ctx context.Context, run runner, c *Conditions)
}

// platformFor returns the reader for goos; one that reads nothing for an
// operating system it does not know.
func platformFor(goos string) platform {
	switch goos {
	case "darwin":
		return darwin{}
	case "linux":
		return linux{root: "/"}
	}
	return none{}
}

type none struct{}

func (none) telemetry(context.Context, runner, *Telemetry)   {}
func (none) conditions(context.Context, runner, *Conditions) {}

// ReadTelemetry reads the platform telemetry of this machine. It never
// fails: what cannot be read is listed in Unavailable.
func ReadTelemetry(ctx context.Context) Telemetry {
	t := Telemetry{OS: runtime.GOOS}
	platformFor(runtime.GOOS).telemetry(ctx, runTool, &t)
	return t
}

// ReadConditions reads this machine's conditions now: the platform's power
// and thermal state, and NVIDIA GPUs' where nvidia-smi exists. It never
// fails: what cannot be read is listed in Unavailable.
func ReadConditions(ctx context.Context) Conditions {
	return readConditions(ctx, runtime.GOOS, runTool)
}

func readConditions(ctx context.Context, goos string, run runner) Conditions {
	c := Conditions{Time: time.Now()}
	platformFor(goos).conditions(ctx, run, &c)
	gpus, err := nvidiaConditions(ctx, run)
	switch {
	case err == nil:
		c.GPUs = gpus
	case !isNotAvailable(err) || goos != "darwin":
		// On a Mac nvidia-smi's absence is the rule and not worth a line.
		unavailable(&c.Unavailable, "nvidia-smi", err)
	}
	return c
}
