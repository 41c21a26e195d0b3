package machine

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// The Mac's hardware as system_profiler and ioreg name it: the chip, its
// memory, and the GPU's own architecture.

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
