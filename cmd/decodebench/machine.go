package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/decodebench/decodebench/machine"
	"github.com/decodebench/decodebench/schema"
)

func machineCommand() *cli.Command {
	return &cli.Command{
		Name:  "machine",
		Usage: "print this machine's identity and a live snapshot of its load, thermal and power state",
		Description: `What an admin runs before trusting a runner. Every source is optional: a tool that is
missing is listed as not available. --watch INTERVAL samples until interrupted (Ctrl-C ends
it, exit 0). --json prints one JSON object (with --watch: the identity, then one snapshot a
line).`,
		Flags: []cli.Flag{
			&cli.DurationFlag{Name: "watch", Usage: "sample every `INTERVAL` until interrupted"},
			&cli.BoolFlag{Name: "json", Usage: "print JSON"},
		},
		Action: func(c *cli.Context) error {
			ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
			defer stop()
			return runMachine(ctx, c.App.Writer, c.Duration("watch"), c.Bool("json"))
		},
	}
}

// machineReport is what `decodebench machine --json` prints.
type machineReport struct {
	Identity      schema.MachineInfo `json:"identity"`
	IdentityError string             `json:"identity_error,omitempty"`
	Telemetry     machine.Telemetry  `json:"telemetry"`
	Snapshot      *machine.Snapshot  `json:"snapshot,omitempty"`
	Warnings      []machine.Warning  `json:"warnings"`
}

func runMachine(ctx context.Context, w io.Writer, watch time.Duration, asJSON bool) error {
	if watch < 0 {
		return &exitError{code: 1, msg: "machine: --watch must be positive"}
	}
	rep := machineReport{Telemetry: machine.ReadTelemetry(ctx)}
	id, err := machine.Identify(ctx)
	rep.Identity = id
	if err != nil {
		rep.IdentityError = err.Error()
	}
	sampler := machine.NewSampler()
	snap := machine.TakeSnapshot(ctx, sampler)
	if ctx.Err() != nil {
		return nil // interrupted before the first snapshot: nothing to say
	}
	rep.Snapshot = &snap
	rep.Warnings = snap.Conditions.Warnings()
	if rep.Warnings == nil {
		rep.Warnings = []machine.Warning{}
	}
	enc := json.NewEncoder(w)
	na := snapshotPrinter{}
	if asJSON {
		if watch == 0 {
			enc.SetIndent("", "  ")
		}
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		printIdentity(w, rep)
		na.print(w, snap)
	}
	if watch == 0 {
		return nil
	}
	t := time.NewTicker(watch)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil // interrupted: a clean end
		case <-t.C:
		}
		snap := machine.TakeSnapshot(ctx, sampler)
		if ctx.Err() != nil {
			return nil
		}
		if asJSON {
			if err := enc.Encode(snap); err != nil {
				return err
			}
		} else {
			na.print(w, snap)
		}
	}
}

// snapshotPrinter prints snapshots one after another, each source that is
// not available only when it first is, or when its reason changes: a
// watch does not repeat the same n/a lines every sample.
type snapshotPrinter map[string]string

func (na snapshotPrinter) print(w io.Writer, s machine.Snapshot) {
	printSnapshot(w, s, func(source, reason string) bool {
		if na[source] == reason {
			return false
		}
		na[source] = reason
		return true
	})
}

func printIdentity(w io.Writer, r machineReport) {
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

// printSnapshot prints one snapshot; a source that is not available is
// printed when newNA says so.
func printSnapshot(w io.Writer, s machine.Snapshot, newNA func(source, reason string) bool) {
	fmt.Fprintf(w, "-- %s\n", s.Time.Format(time.RFC3339))
	if l := s.Load; l != nil {
		fmt.Fprintf(w, "load      cpu %.1f%% busy, load avg %.2f %.2f %.2f, %.1f GiB available, swap %.1f GiB used\n",
			l.CPUBusyPct, l.Load1, l.Load5, l.Load15, float64(l.MemAvailableBytes)/(1<<30), float64(l.SwapUsedBytes)/(1<<30))
	} else if s.LoadError != "" {
		fmt.Fprintf(w, "load      not available: %s\n", s.LoadError)
	}
	c := s.Conditions
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
	for _, p := range s.GPUProcesses {
		fmt.Fprintf(w, "gpu proc  %d %s %.0f MiB\n", p.PID, p.Name, p.UsedMemMiB)
	}
	for _, u := range c.Unavailable {
		if newNA(u.Source, u.Reason) {
			fmt.Fprintf(w, "n/a       %s: %s\n", u.Source, u.Reason)
		}
	}
	ws := c.Warnings()
	if len(ws) == 0 {
		fmt.Fprintln(w, "warnings  none")
	}
	for _, x := range ws {
		fmt.Fprintf(w, "WARNING   %s\n", x)
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
