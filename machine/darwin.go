package machine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
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

// macHardware is what parseSystemProfiler reads.
type macHardware struct {
	Chip            string
	ModelIdentifier string
	ModelName       string
	MemoryBytes     uint64
	GPUCores        int
}

// parseSystemProfiler reads `system_profiler SPHardwareDataType
// SPDisplaysDataType -json` (either data type may be missing).
func parseSystemProfiler(out []byte) (macHardware, error) {
	var doc struct {
		Hardware []struct {
			Chip     string `json:"chip_type"`
			CPUType  string `json:"cpu_type"` // Intel Macs
			Model    string `json:"machine_model"`
			Name     string `json:"machine_name"`
			Memory   string `json:"physical_memory"`
			Platform string `json:"platform_UUID"`
		} `json:"SPHardwareDataType"`
		Displays []struct {
			Name   string `json:"_name"`
			Cores  string `json:"sppci_cores"`
			Vendor string `json:"spdisplays_vendor"`
		} `json:"SPDisplaysDataType"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		return macHardware{}, fmt.Errorf("not system_profiler JSON: %w", err)
	}
	var hw macHardware
	if len(doc.Hardware) > 0 {
		h := doc.Hardware[0]
		hw.Chip, hw.ModelIdentifier, hw.ModelName = h.Chip, h.Model, h.Name
		if hw.Chip == "" {
			hw.Chip = h.CPUType
		}
		hw.MemoryBytes = parseMemorySize(h.Memory)
	}
	for _, d := range doc.Displays {
		if n, err := strconv.Atoi(strings.TrimSpace(d.Cores)); err == nil && n > hw.GPUCores {
			hw.GPUCores = n
		}
	}
	return hw, nil
}

// parseMemorySize reads system_profiler's "128 GB" / "512 MB".
func parseMemorySize(s string) uint64 {
	f := strings.Fields(s)
	if len(f) != 2 {
		return 0
	}
	n, err := strconv.ParseUint(f[0], 10, 64)
	if err != nil {
		return 0
	}
	switch strings.ToUpper(f[1]) {
	case "TB":
		return n << 40
	case "GB":
		return n << 30
	case "MB":
		return n << 20
	}
	return 0
}

var appleChipRE = regexp.MustCompile(`^Apple M(\d+)\b`)

// chipGPUGeneration infers the Apple GPU generation from the chip name:
// M1 is generation 13, each M-series step one more (M5 is 17), as Metal's
// architecture names show (applegpu_g13g on an M1, applegpu_g17s on an
// M5 Max; see testdata/macos/mx-metal-device_info.*). 0 when not an M chip.
func chipGPUGeneration(chip string) int {
	m := appleChipRE.FindStringSubmatch(strings.TrimSpace(chip))
	if m == nil {
		return 0
	}
	n, err := strconv.Atoi(m[1])
	if err != nil || n < 1 {
		return 0
	}
	return 12 + n
}

// battery is what parsePmsetBatt reads.
type battery struct {
	Source  PowerSource
	Percent *int
	State   string
}

var battRE = regexp.MustCompile(`(\d+)%;\s*([^;]+)`)

// parsePmsetBatt reads `pmset -g batt`:
//
//	Now drawing from 'Battery Power'
//	 -InternalBattery-0 (id=22806627)	78%; discharging; 5:05 remaining present: true
func parsePmsetBatt(out []byte) battery {
	var b battery
	for _, line := range strings.Split(string(out), "\n") {
		if _, src, ok := strings.Cut(line, "Now drawing from '"); ok {
			src, _, _ = strings.Cut(src, "'")
			switch src {
			case "AC Power":
				b.Source = PowerAC
			case "Battery Power":
				b.Source = PowerBattery
			}
			continue
		}
		if strings.Contains(line, "InternalBattery") {
			if m := battRE.FindStringSubmatch(line); m != nil {
				p, _ := strconv.Atoi(m[1])
				b.Percent = &p
				b.State = strings.TrimSpace(m[2])
				// "AC attached" is followed by "; not charging".
				if b.State == "AC attached" {
					if _, rest, ok := strings.Cut(line, "AC attached;"); ok {
						rest, _, _ = strings.Cut(rest, ";")
						b.State = "AC attached; " + strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "present: true"))
					}
				}
			}
		}
	}
	return b
}

// parseLowPowerMode reads the "lowpowermode N" line of `pmset -g`, or on
// macOS versions that print it instead "powermode N" (0 automatic, 1 low
// power, 2 high power). nil when neither line is there.
func parseLowPowerMode(out []byte) *bool {
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		if f[0] == "lowpowermode" || f[0] == "powermode" {
			n, err := strconv.Atoi(f[1])
			if err != nil {
				continue
			}
			on := n == 1
			return &on
		}
	}
	return nil
}

// macOS energy modes, as pmset's powermode numbers them.
const (
	PowerModeAutomatic = "automatic"
	PowerModeLow       = "low power"
	PowerModeHigh      = "high power"
)

// parsePowerMode reads macOS's energy mode from `pmset -g`: "powermode N"
// (0 Automatic, 1 Low Power, 2 High Power) where macOS prints it, and
// "lowpowermode 1" as Low Power; "" otherwise ("lowpowermode 0" leaves
// Automatic and High Power apart unknown).
func parsePowerMode(out []byte) string {
	mode := ""
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		switch n, err := strconv.Atoi(f[1]); {
		case err != nil:
		case f[0] == "powermode":
			return [...]string{PowerModeAutomatic, PowerModeLow, PowerModeHigh, ""}[min(max(n, 0), 3)]
		case f[0] == "lowpowermode" && n == 1:
			mode = PowerModeLow
		}
	}
	return mode
}

// IOAccelerator is the Apple GPU as ioreg's accelerator class names it.
type IOAccelerator struct {
	// Class is the Metal plugin class ("AGXG15SDevice"), or the
	// accelerator's IOClass where that is all there is.
	Class      string
	Generation int
	// Family is the architecture name MLX and Metal report
	// (applegpu_g15s), "" when the class's letter is none of theirs (the
	// M1 Pro's AGXG13X).
	Family string
}

var agxRE = regexp.MustCompile(`"(?:MetalPluginClassName|IOClass)" = "(AGX(?:Accelerator)?G(\d{2})([A-Z])\w*)"`)

// mlxFamilyLetters are the variant letters of the architecture names
// compiled into Apple's Metal toolchain (applegpu_g13c … applegpu_g18p).
const mlxFamilyLetters = "cdgps"

// parseIOAccelerator reads `ioreg -r -c IOAccelerator -d 1`: the Metal
// plugin class (AGXG15SDevice) gives the generation (15, M3) and the
// variant letter (s) that MLX's architecture name applegpu_g15s carries;
// the IOClass (AGXAcceleratorG15S) serves where no plugin class is shown.
func parseIOAccelerator(out []byte) (IOAccelerator, bool) {
	var best []string
	for _, m := range agxRE.FindAllStringSubmatch(string(out), -1) {
		if best == nil || (strings.HasSuffix(m[1], "Device") && !strings.HasSuffix(best[1], "Device")) {
			best = m
		}
	}
	if best == nil {
		return IOAccelerator{}, false
	}
	gen, _ := strconv.Atoi(best[2])
	a := IOAccelerator{Class: best[1], Generation: gen}
	if letter := strings.ToLower(best[3]); strings.Contains(mlxFamilyLetters, letter) {
		a.Family = "applegpu_g" + best[2] + letter
	}
	return a, true
}

// therm is what parsePmsetTherm reads.
type therm struct {
	Thermal, Performance, SpeedLimit *int
}

var levelRE = regexp.MustCompile(`(?i)(thermal|performance) warning level[^0-9]*(\d+)`)

// parsePmsetTherm reads `pmset -g therm`. "Note: No thermal warning level
// has been recorded" is level 0; a recorded level is the number on its
// line. CPU_Speed_Limit is read from the "CPU Power notify" block.
func parsePmsetTherm(out []byte) therm {
	var t therm
	zero := func() *int { z := 0; return &z }
	for _, line := range strings.Split(string(out), "\n") {
		l := strings.TrimSpace(line)
		lower := strings.ToLower(l)
		switch {
		case strings.Contains(lower, "no thermal warning level"):
			t.Thermal = zero()
		case strings.Contains(lower, "no performance warning level"):
			t.Performance = zero()
		case strings.HasPrefix(l, "CPU_Speed_Limit"):
			if _, v, ok := strings.Cut(l, "="); ok {
				if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
					t.SpeedLimit = &n
				}
			}
		default:
			if m := levelRE.FindStringSubmatch(l); m != nil {
				n, _ := strconv.Atoi(m[2])
				if strings.EqualFold(m[1], "thermal") {
					t.Thermal = &n
				} else {
					t.Performance = &n
				}
			}
		}
	}
	return t
}

// parseMemoryPressure reads "System-wide memory free percentage: 88%" from
// `memory_pressure`.
func parseMemoryPressure(out []byte) (int, bool) {
	for _, line := range strings.Split(string(out), "\n") {
		if _, v, ok := strings.Cut(line, "System-wide memory free percentage:"); ok {
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), "%"))
			return n, err == nil
		}
	}
	return 0, false
}
