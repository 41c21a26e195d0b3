package recorder

import (
	"fmt"
	"strings"

	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
)

func (m *mdWriter) machine(r *schema.Record) {
	m.h2("Machine")
	id := r.Machine
	m.p("| | |\n|---|---|\n")
	m.p("| Hardware slug | %s |\n", cellCode(r.Hardware))
	m.p("| CPU | %s (%d cores, %d threads) |\n", cellText(id.CPUModel), id.Cores, id.Threads)
	for _, g := range id.GPUs {
		m.p("| GPU | %s (driver %s, %d MiB) |\n", cellText(g.Name), cellText(g.Driver), g.MemoryMiB)
	}
	m.p("| Memory | %s |\n", bytesString(id.MemoryBytes))
	m.p("| OS | %s |\n", cellText(fmt.Sprintf("%s %s %s, kernel %s, %s", id.OS, id.Platform, id.PlatformVersion, id.Kernel, id.Arch)))
	m.p("| Host | %s |\n", cellCode(id.Hostname))
	m.platformRows(id.Telemetry)
	m.ln("")
	m.roofline(r, newShortPaths(r))
	loads := collectLoads(r.Runs)
	if len(loads) == 0 {
		m.ln("No load samples were taken.")
		m.ln("")
		return
	}
	m.ln("Load, sampled before and after every run (per-run values in the raw table):")
	m.ln("")
	m.ln("| Measure | min | median | max |")
	m.ln("|---|---:|---:|---:|")
	row := func(name string, f func(schema.LoadSample) float64, digits int, unit string) {
		xs := make([]float64, len(loads))
		for i, l := range loads {
			xs[i] = f(l)
		}
		s := stats.Summarize(xs)
		m.p("| %s | %s%s | %s%s | %s%s |\n", name, num(s.Min, digits), unit, num(s.Median, digits), unit, num(s.Max, digits), unit)
	}
	row("Load average (1 min)", func(l schema.LoadSample) float64 { return l.Load1 }, 3, "")
	row("CPU busy since previous sample", func(l schema.LoadSample) float64 { return l.CPUBusyPct }, 3, "%")
	row("Available memory", func(l schema.LoadSample) float64 { return float64(l.MemAvailableBytes) / (1 << 30) }, 3, " GiB")
	row("Swap used", func(l schema.LoadSample) float64 { return float64(l.SwapUsedBytes) / (1 << 20) }, 3, " MiB")
	m.ln("")
}

func collectLoads(runs []schema.Run) []schema.LoadSample {
	var out []schema.LoadSample
	for _, r := range runs {
		if r.LoadBefore != nil {
			out = append(out, *r.LoadBefore)
		}
		if r.LoadAfter != nil {
			out = append(out, *r.LoadAfter)
		}
	}
	return out
}

// platformRows are the machine section's telemetry rows.
func (m *mdWriter) platformRows(t *schema.PlatformInfo) {
	if t == nil {
		return
	}
	if t.Chip != "" {
		s := t.Chip
		if t.PerformanceCores > 0 || t.EfficiencyCores > 0 {
			s += fmt.Sprintf(", %d performance + %d efficiency cores", t.PerformanceCores, t.EfficiencyCores)
		}
		if t.GPUCores > 0 {
			s += fmt.Sprintf(", %d GPU cores", t.GPUCores)
		}
		if t.ModelIdentifier != "" {
			s += ", " + t.ModelIdentifier
		}
		m.p("| Chip | %s |\n", cellText(s))
	}
	if t.GPUGeneration > 0 {
		m.p("| Apple GPU generation | %d (%s)%s |\n", t.GPUGeneration, cellCode(t.GPUArchitecture), gpuGenerationSource(t))
	}
	if t.OSVersion != "" {
		m.p("| macOS | %s |\n", cellText(strings.TrimSpace(t.OSName+" "+t.OSVersion+" ("+t.OSBuild+")")))
	}
	if len(t.Governors) > 0 {
		m.p("| CPU frequency governor | %s |\n", cellText(strings.Join(t.Governors, ", ")))
	}
	if c := t.Conditions; c != nil {
		var parts []string
		if c.Power != "" {
			parts = append(parts, "power "+c.Power)
		}
		if c.LowPowerMode != nil {
			parts = append(parts, fmt.Sprintf("low-power mode %v", *c.LowPowerMode))
		}
		if c.PowerMode != "" {
			parts = append(parts, "power mode "+text(c.PowerMode))
		}
		if s := thermalState(c); s != "" {
			parts = append(parts, "thermal "+s)
		}
		if s := gpuState(c); s != "" {
			parts = append(parts, "GPU SM MHz/°C/W "+s)
		}
		for _, w := range c.Warnings {
			parts = append(parts, "warning "+w.Code+" "+w.Value)
		}
		if len(parts) > 0 {
			m.p("| Conditions at start | %s |\n", cellText(strings.Join(parts, "; ")))
		}
	}
	if len(t.Unavailable) > 0 {
		m.p("| Not readable | %s |\n", cellText(strings.Join(t.Unavailable, "; ")))
	}
}

// gpuGenerationSource says where the Apple GPU generation came from; ""
// in records from before it was said.
func gpuGenerationSource(t *schema.PlatformInfo) string {
	switch t.GPUGenerationSource {
	case "ioreg":
		if t.GPUArchitecture == "" {
			return ", read from the GPU's accelerator class " + cellCode(t.GPUClass) + " (ioreg), whose variant letter names no MLX family"
		}
		return ", read from the GPU's accelerator class " + cellCode(t.GPUClass) + " (ioreg)"
	case "chip":
		return ", inferred from the chip's name (fallback: ioreg named no accelerator class; the variant is unknown)"
	}
	return ""
}
