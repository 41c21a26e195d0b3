package machine

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// MacTelemetry is what macOS tells about an Apple Silicon (or Intel) Mac.
type MacTelemetry struct {
	Chip            string      `json:"chip,omitempty"`             // "Apple M5 Max"
	Slug            string      `json:"slug,omitempty"`             // "m5max"
	ModelIdentifier string      `json:"model_identifier,omitempty"` // "Mac17,6"
	ModelName       string      `json:"model_name,omitempty"`       // "MacBook Pro"
	MemoryBytes     uint64      `json:"memory_bytes,omitempty"`
	CoreLevels      []CoreLevel `json:"core_levels,omitempty"` // hw.perflevelN, fastest first
	// PerformanceCores counts every level but the efficiency one (the M5
	// generation calls its levels "Super" and "Performance").
	PerformanceCores int `json:"performance_cores,omitempty"`
	EfficiencyCores  int `json:"efficiency_cores,omitempty"`
	GPUCores         int `json:"gpu_cores,omitempty"`
	// GPUGeneration is the Apple GPU generation (13 for M1 … 17 for M5).
	// GPUGenerationSource says where it came from: "metal" when read from
	// a Metal architecture name such as applegpu_g17s, "chip" when inferred
	// from the M-series number of the chip.
	GPUGeneration       int    `json:"gpu_generation,omitempty"`
	GPUArchitecture     string `json:"gpu_architecture,omitempty"`
	GPUGenerationSource string `json:"gpu_generation_source,omitempty"`
	// GPUClass is the accelerator's Metal plugin class as ioreg shows it
	// ("AGXG15SDevice"), from which the generation and family are read.
	GPUClass  string `json:"gpu_class,omitempty"`
	OSName    string `json:"os_name,omitempty"`    // "macOS"
	OSVersion string `json:"os_version,omitempty"` // "26.4"
	OSBuild   string `json:"os_build,omitempty"`   // "25E246"
}

// A CoreLevel is one of Apple's CPU performance levels.
type CoreLevel struct {
	Name     string `json:"name"` // "Super", "Performance", "Efficiency"
	Physical int    `json:"physical"`
	Logical  int    `json:"logical"`
}

type darwin struct{}

func (darwin) telemetry(ctx context.Context, run runner, t *Telemetry) {
	m := &MacTelemetry{}
	t.Mac = m
	if out, err := run(ctx, "sysctl", "-n", "machdep.cpu.brand_string"); err != nil {
		unavailable(&t.Unavailable, "sysctl -n machdep.cpu.brand_string", err)
	} else {
		m.Chip = parseBrandString(out)
		m.Slug = cpuSlug(m.Chip)
	}
	if out, err := run(ctx, "sysctl", "hw"); err != nil {
		unavailable(&t.Unavailable, "sysctl hw", err)
	} else {
		kv := parseSysctl(out)
		m.MemoryBytes, _ = strconv.ParseUint(kv["hw.memsize"], 10, 64)
		m.CoreLevels = parseCoreLevels(kv)
		m.PerformanceCores, m.EfficiencyCores = countCores(m.CoreLevels)
	}
	if out, err := run(ctx, "system_profiler", "SPHardwareDataType", "SPDisplaysDataType", "-json"); err != nil {
		unavailable(&t.Unavailable, "system_profiler SPHardwareDataType SPDisplaysDataType -json", err)
	} else if hw, err := parseSystemProfiler(out); err != nil {
		unavailable(&t.Unavailable, "system_profiler SPHardwareDataType SPDisplaysDataType -json", err)
	} else {
		m.ModelIdentifier, m.ModelName, m.GPUCores = hw.ModelIdentifier, hw.ModelName, hw.GPUCores
		if m.Chip == "" {
			m.Chip, m.Slug = hw.Chip, cpuSlug(hw.Chip)
		}
		if m.MemoryBytes == 0 {
			m.MemoryBytes = hw.MemoryBytes
		}
	}
	if out, err := run(ctx, "ioreg", "-r", "-c", "IOAccelerator", "-d", "1"); err != nil {
		unavailable(&t.Unavailable, "ioreg -r -c IOAccelerator -d 1", err)
	} else if a, ok := parseIOAccelerator(out); ok {
		m.GPUClass, m.GPUGeneration, m.GPUArchitecture, m.GPUGenerationSource = a.Class, a.Generation, a.Family, "ioreg"
	}
	if m.GPUGeneration == 0 {
		if g := chipGPUGeneration(m.Chip); g > 0 {
			m.GPUGeneration, m.GPUGenerationSource = g, "chip"
		}
	}
	if out, err := run(ctx, "sw_vers"); err != nil {
		unavailable(&t.Unavailable, "sw_vers", err)
	} else {
		kv := parseColonLines(out)
		m.OSName, m.OSVersion, m.OSBuild = kv["ProductName"], kv["ProductVersion"], kv["BuildVersion"]
	}
}

func (darwin) conditions(ctx context.Context, run runner, c *Conditions) {
	if out, err := run(ctx, "pmset", "-g", "batt"); err != nil {
		unavailable(&c.Unavailable, "pmset -g batt", err)
	} else {
		b := parsePmsetBatt(out)
		c.Power, c.BatteryPercent, c.BatteryState = b.Source, b.Percent, b.State
	}
	if out, err := run(ctx, "pmset", "-g"); err != nil {
		unavailable(&c.Unavailable, "pmset -g", err)
	} else {
		c.LowPowerMode = parseLowPowerMode(out)
		c.PowerMode = parsePowerMode(out)
	}
	if out, err := run(ctx, "pmset", "-g", "therm"); err != nil {
		unavailable(&c.Unavailable, "pmset -g therm", err)
	} else {
		th := parsePmsetTherm(out)
		c.ThermalWarningLevel, c.PerformanceWarningLevel, c.CPUSpeedLimit = th.Thermal, th.Performance, th.SpeedLimit
	}
	if out, err := run(ctx, "memory_pressure"); err != nil {
		unavailable(&c.Unavailable, "memory_pressure", err)
	} else if p, ok := parseMemoryPressure(out); ok {
		c.MemoryFreePct = &p
	} else {
		unavailable(&c.Unavailable, "memory_pressure", errors.New("no \"System-wide memory free percentage\" line"))
	}
}

// parseSysctl reads "key: value" lines as sysctl prints them.
func parseSysctl(out []byte) map[string]string {
	return parseColonLines(out)
}

// parseColonLines reads "key: value" lines (sysctl, sw_vers), the first of
// each key winning; values are trimmed of spaces and tabs.
func parseColonLines(out []byte) map[string]string {
	kv := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		k, v, ok := strings.Cut(line, ":")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			continue
		}
		if _, seen := kv[k]; !seen {
			kv[k] = strings.TrimSpace(v)
		}
	}
	return kv
}

// parseCoreLevels reads hw.perflevelN.* from sysctl keys. Level 0 is the
// fastest. Levels without a name (macOS before 12) are named by Apple's
// convention: the first "Performance", the last of two "Efficiency".
func parseCoreLevels(kv map[string]string) []CoreLevel {
	var levels []CoreLevel
	for i := 0; ; i++ {
		p := fmt.Sprintf("hw.perflevel%d.", i)
		phys, err := strconv.Atoi(kv[p+"physicalcpu"])
		if err != nil {
			break
		}
		logical, _ := strconv.Atoi(kv[p+"logicalcpu"])
		levels = append(levels, CoreLevel{Name: kv[p+"name"], Physical: phys, Logical: logical})
	}
	for i := range levels {
		if levels[i].Name != "" {
			continue
		}
		switch {
		case i == 0:
			levels[i].Name = "Performance"
		case i == len(levels)-1:
			levels[i].Name = "Efficiency"
		}
	}
	return levels
}

// countCores sums physical cores into efficiency and the rest.
func countCores(levels []CoreLevel) (perf, eff int) {
	for _, l := range levels {
		if strings.EqualFold(l.Name, "Efficiency") {
			eff += l.Physical
		} else {
			perf += l.Physical
		}
	}
	return perf, eff
}
