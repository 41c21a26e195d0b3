package machine

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"

	"github.com/decodebench/decodebench/schema"
)

// The machine's memory bandwidth, the ceiling of a memory-bound decode:
// Apple chips and NVIDIA GPUs from a table of their makers' figures
// (bandwidth.tsv, a source for every figure), any other host's memory
// measured (triad.go).

// Bandwidth is a memory's bandwidth and where the figure comes from.
type Bandwidth struct {
	GBs float64
	// Memory names what the figure is of: "NVIDIA H200", "Apple M4 Max
	// (16-core CPU)", "host memory (Intel Xeon, 2 threads)".
	Memory string
	// Source is the table's source for the figure, or how it was
	// measured.
	Source   string
	Measured bool
}

//go:embed bandwidth.tsv
var bandwidthTSV string

// bandwidthRow is one line of bandwidth.tsv; 0 cores match any.
type bandwidthRow struct {
	kind, name         string
	cpuCores, gpuCores int
	gbs                float64
	source             string
}

var bandwidthRows = parseBandwidthTable(bandwidthTSV)

// parseBandwidthTable reads bandwidth.tsv; a malformed line panics, as
// the table is part of the program (TestBandwidthTable reads it).
func parseBandwidthTable(s string) []bandwidthRow {
	var rows []bandwidthRow
	for i, line := range strings.Split(s, "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 6 {
			panic(fmt.Sprintf("bandwidth.tsv:%d: %d fields, want 6", i+1, len(f)))
		}
		cores := func(s string) int {
			if s == "*" {
				return 0
			}
			n, err := strconv.Atoi(s)
			if err != nil || n <= 0 {
				panic(fmt.Sprintf("bandwidth.tsv:%d: cores %q", i+1, s))
			}
			return n
		}
		gbs, err := strconv.ParseFloat(f[4], 64)
		if err != nil || gbs <= 0 || !strings.HasPrefix(f[5], "https://") {
			panic(fmt.Sprintf("bandwidth.tsv:%d: figure %q or source %q", i+1, f[4], f[5]))
		}
		rows = append(rows, bandwidthRow{kind: f[0], name: f[1], cpuCores: cores(f[2]), gpuCores: cores(f[3]), gbs: gbs, source: f[5]})
	}
	return rows
}

// NVIDIABandwidth is the table's figure for an NVIDIA GPU by the name
// nvidia-smi gives it.
func NVIDIABandwidth(gpu string) (Bandwidth, bool) {
	name := strings.Join(strings.Fields(gpu), " ")
	for _, r := range bandwidthRows {
		if r.kind == "nvidia" && strings.EqualFold(r.name, name) {
			return Bandwidth{GBs: r.gbs, Memory: r.name, Source: r.source}, true
		}
	}
	return Bandwidth{}, false
}

// AppleBandwidth is the table's figure for an Apple chip by its name
// (machdep.cpu.brand_string, system_profiler's chip_type) and, where the
// chip comes in variants of different bandwidth (the M3 and M4 Max), its
// CPU or GPU core count (0 unknown). A chip whose variant the counts do
// not tell has no figure.
func AppleBandwidth(chip string, cpuCores, gpuCores int) (Bandwidth, bool) {
	name := strings.Join(strings.Fields(chip), " ")
	for _, r := range bandwidthRows {
		if r.kind != "apple" || !strings.EqualFold(r.name, name) {
			continue
		}
		if (r.cpuCores != 0 && r.cpuCores != cpuCores) || (r.gpuCores != 0 && r.gpuCores != gpuCores) {
			continue
		}
		memory := r.name
		switch {
		case r.gpuCores != 0:
			memory += fmt.Sprintf(" (%d-core GPU)", r.gpuCores)
		case r.cpuCores != 0:
			memory += fmt.Sprintf(" (%d-core CPU)", r.cpuCores)
		}
		return Bandwidth{GBs: r.gbs, Memory: memory, Source: r.source}, true
	}
	return Bandwidth{}, false
}

// TableBandwidth is the table's figure for the memory an engine decodes
// from on machine m: an NVIDIA GPU's when gpu is set (its first GPU's;
// the engine loaded a CUDA backend), an Apple chip's unified memory on a
// Mac. ok is false when the table has no figure for it.
func TableBandwidth(m schema.MachineInfo, gpu bool) (Bandwidth, bool) {
	if gpu && len(m.GPUs) > 0 {
		return NVIDIABandwidth(m.GPUs[0].Name)
	}
	if m.OS != "darwin" {
		return Bandwidth{}, false
	}
	chip, gpuCores := m.CPUModel, 0
	if t := m.Telemetry; t != nil {
		if t.Chip != "" {
			chip = t.Chip
		}
		gpuCores = t.GPUCores
	}
	return AppleBandwidth(chip, m.Cores, gpuCores)
}
