package console

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/decodebench/decodebench/machine"
	"github.com/decodebench/decodebench/schema"
)

// MachineReport is what `decodebench machine` reports: the machine's
// identity, the telemetry sources it has, and a first snapshot of its
// state with that snapshot's warnings (as --json prints it).
type MachineReport struct {
	Identity      schema.MachineInfo `json:"identity"`
	IdentityError string             `json:"identity_error,omitempty"`
	Telemetry     machine.Telemetry  `json:"telemetry"`
	Snapshot      *machine.Snapshot  `json:"snapshot,omitempty"`
	Warnings      []machine.Warning  `json:"warnings"`
}

// WriteIdentity writes the machine's identity, its telemetry and the
// sources that are not available, one line each.
func WriteIdentity(w io.Writer, r MachineReport) {
	id := r.Identity
	fmt.Fprintf(w, "machine   %s (%s)\n", id.Slug, id.Hostname)
	fmt.Fprintf(w, "os        %s %s %s, kernel %s, %s\n", id.OS, id.Platform, id.PlatformVersion, id.Kernel, id.Arch)
	fmt.Fprintf(w, "cpu       %s: %d cores, %d threads\n", id.CPUModel, id.Cores, id.Threads)
	fmt.Fprintf(w, "memory    %.1f GiB\n", float64(id.MemoryBytes)/(1<<30))
	for _, g := range id.GPUs {
		fmt.Fprintf(w, "gpu       %s, driver %s, %d MiB\n", g.Name, g.Driver, g.MemoryMiB)
	}
	if m := r.Telemetry.Mac; m != nil {
		fmt.Fprintf(w, "mac       %s %s (%s), %d performance + %d efficiency cores", m.ModelName, m.ModelIdentifier, m.Chip, m.PerformanceCores, m.EfficiencyCores)
		if m.GPUCores > 0 {
			fmt.Fprintf(w, ", %d GPU cores", m.GPUCores)
		}
		if m.GPUGeneration > 0 {
			fmt.Fprintf(w, ", GPU generation %d (from %s)", m.GPUGeneration, m.GPUGenerationSource)
		}
		fmt.Fprintf(w, "; %s %s (%s)\n", m.OSName, m.OSVersion, m.OSBuild)
	}
	if l := r.Telemetry.Linux; l != nil && len(l.Governors) > 0 {
		fmt.Fprintf(w, "governor  %s\n", strings.Join(l.Governors, ", "))
	}
	if r.IdentityError != "" {
		fmt.Fprintf(w, "identity  incomplete: %s\n", r.IdentityError)
	}
	for _, u := range r.Telemetry.Unavailable {
		fmt.Fprintf(w, "n/a       %s: %s\n", u.Source, u.Reason)
	}
}

// Snapshots writes snapshots one after another, each source that is not
// available only when it first is, or when its reason changes: a watch
// does not repeat the same n/a lines every sample. The zero value is
// ready to use.
type Snapshots struct {
	said map[string]string // source → the reason last said
}

// Write writes one snapshot.
func (p *Snapshots) Write(w io.Writer, s machine.Snapshot) {
	if p.said == nil {
		p.said = map[string]string{}
	}
	fmt.Fprintf(w, "-- %s\n", s.Time.Format(time.RFC3339))
	writeLoad(w, s)
	writeConditions(w, s.Conditions)
	for _, g := range s.GPUProcesses {
		fmt.Fprintf(w, "gpu proc  %d %s %.0f MiB\n", g.PID, g.Name, g.UsedMemMiB)
	}
	for _, u := range s.Conditions.Unavailable {
		if p.said[u.Source] != u.Reason {
			p.said[u.Source] = u.Reason
			fmt.Fprintf(w, "n/a       %s: %s\n", u.Source, u.Reason)
		}
	}
	ws := s.Conditions.Warnings()
	if len(ws) == 0 {
		fmt.Fprintln(w, "warnings  none")
	}
	for _, x := range ws {
		fmt.Fprintf(w, "WARNING   %s\n", x)
	}
}

func writeLoad(w io.Writer, s machine.Snapshot) {
	if l := s.Load; l != nil {
		fmt.Fprintf(w, "load      cpu %.1f%% busy, load avg %.2f %.2f %.2f, %.1f GiB available, swap %.1f GiB used\n",
			l.CPUBusyPct, l.Load1, l.Load5, l.Load15, float64(l.MemAvailableBytes)/(1<<30), float64(l.SwapUsedBytes)/(1<<30))
	} else if s.LoadError != "" {
		fmt.Fprintf(w, "load      not available: %s\n", s.LoadError)
	}
}

// writeConditions writes power, thermal, memory pressure, CPU frequency,
// thermal zones and GPUs, each that the snapshot has.
func writeConditions(w io.Writer, c machine.Conditions) {
	if c.Power != machine.PowerUnknown {
		fmt.Fprintf(w, "power     %s", c.Power)
		if c.BatteryPercent != nil {
			fmt.Fprintf(w, ", battery %d%% %s", *c.BatteryPercent, c.BatteryState)
		}
		fmt.Fprintln(w)
	}
	if c.LowPowerMode != nil {
		fmt.Fprintf(w, "low power %v\n", *c.LowPowerMode)
	}
	if c.ThermalWarningLevel != nil || c.CPUSpeedLimit != nil {
		fmt.Fprintf(w, "thermal   warning level %s, performance level %s, cpu speed limit %s\n",
			intOr(c.ThermalWarningLevel, "n/a"), intOr(c.PerformanceWarningLevel, "n/a"), intOr(c.CPUSpeedLimit, "none"))
	}
	if c.MemoryFreePct != nil {
		fmt.Fprintf(w, "memory    %d%% free (memory pressure)\n", *c.MemoryFreePct)
	}
	if f := c.CPUFreqMHz; f != nil {
		fmt.Fprintf(w, "cpu freq  %.0f–%.0f MHz (mean %.0f) over %d CPUs\n", f.Min, f.Max, f.Mean, f.CPUs)
	}
	for _, z := range c.ThermalZones {
		fmt.Fprintf(w, "zone      %s %s %.1f °C\n", z.Zone, z.Type, z.TempC)
	}
	for _, g := range c.GPUs {
		fmt.Fprintf(w, "gpu%d      %s: sm %s MHz, mem %s MHz, %s °C, %s W, util %s%%, %s MiB used, reasons %s\n",
			g.Index, g.Name, num(g.SMClockMHz), num(g.MemClockMHz), num(g.TempC), num(g.PowerW), num(g.UtilPct), num(g.MemUsedMiB), strings.Join(g.Reasons, "+"))
	}
}

func intOr(p *int, none string) string {
	if p == nil {
		return none
	}
	return fmt.Sprint(*p)
}

func num(p *float64) string {
	if p == nil {
		return "n/a"
	}
	return fmt.Sprintf("%g", *p)
}
