package harness

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/decodebench/decodebench/internal/pct"
	"github.com/decodebench/decodebench/machine"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// Before its first run a campaign looks at the host (its load, the
// busiest processes, the quiet gate's rule) and says what it found and
// what it will do: wait for a quiet host, bounded, with progress, or go
// on with the record marking what the host did to the runs. A campaign
// that started on a busy host without a word took 37 minutes to a
// verdict estimated at four.

// hostCheckFor is how long the host check watches the processes: a
// second holds 100 of the kernel's CPU ticks, a process's share to 1% of
// a core where the quiet gate's default limit is 15%, and every campaign
// (a bisect step, each of a sweep's) waits it once before its first run.
const hostCheckFor = time.Second

// quietEvery is how often a wait for a quiet host says how it stands,
// where the progress is not a live line.
const quietEvery = 10 * time.Second

// quietConfig is the quiet gate's rule: the scenario's gates.quiet, or,
// for the host check of a scenario without one, its defaults. The deny
// list holds the defaults, the scenario's names and the engine binaries'
// (another instance of the engine, not this campaign's).
func (c *campaign) quietConfig() machine.QuietConfig {
	cfg := machine.QuietConfig{CPUThreshold: scenarios.DefaultQuietMaxCPU, Conditions: c.host.conditions}
	deny := slices.Clone(machine.DefaultDeny)
	if q := c.policy.Gates.Quiet; q != nil {
		cfg.Window, cfg.Interval, cfg.MaxWait, cfg.CPUThreshold = q.Window, q.Interval, q.MaxWait, q.MaxCPU
		deny = append(deny, q.Deny...)
	}
	for _, e := range c.scenario.Engines() {
		if name := filepath.Base(e.Launch.Binary()); !slices.Contains(genericLaunchers, name) && !slices.Contains(deny, name) {
			deny = append(deny, name)
		}
	}
	cfg.Deny = deny
	return cfg
}

// hostCheck looks at the host before the campaign's first run here (a
// resume's too) and says what it found and what the campaign will do.
func (c *campaign) hostCheck(ctx context.Context) {
	check := c.host.check
	if check == nil {
		check = machine.CheckHost
	}
	cfg := c.quietConfig()
	h := check(ctx, cfg, hostCheckFor)
	if ctx.Err() != nil {
		return
	}
	c.progress.Printf("host check: %s", hostFound(h))
	c.progress.Printf("host check: %s", c.hostPlan(h, cfg))
}

// hostFound says what the check saw: cores, load, the busiest processes.
func hostFound(h machine.HostCheck) string {
	s := fmt.Sprintf("%d cores", h.Cores)
	if l := h.Load; l != nil {
		s += fmt.Sprintf(", load %.1f (1 min), %s of the CPU busy over %v", l.Load1, pct.Fixed(l.CPUBusyPct/100, 0), h.Over)
	}
	if len(h.Busiest) == 0 {
		return s + "; no other process used 1% of a core"
	}
	var ps []string
	for _, p := range h.Busiest {
		ps = append(ps, fmt.Sprintf("%s (pid %d) %s of a core", p.Name, p.PID, pct.Fixed(p.Cores, 0)))
	}
	return s + "; busiest other processes: " + strings.Join(ps, ", ")
}

// hostPlan says what the quiet gate's rule finds and what the campaign
// does about it.
func (c *campaign) hostPlan(h machine.HostCheck, cfg machine.QuietConfig) string {
	q := c.policy.Gates.Quiet
	rule := fmt.Sprintf("no other process above %s of one core, and none of its deny list running: compilers, build tools, CI workers, another %s",
		scenarios.Fraction(cfg.CPUThreshold), filepath.Base(c.scenario.Launch(c.scenario.Baseline).Binary()))
	slow := ""
	if l := h.Load; l != nil && l.Load1 > float64(h.Cores) {
		slow = fmt.Sprintf("; with a load of %.1f on %d cores, every run takes longer than the estimate", l.Load1, h.Cores)
	}
	switch {
	case q == nil && h.Quiet():
		return fmt.Sprintf("quiet by the quiet gate's rule (%s); the runs start now%s", rule, slow)
	case q == nil:
		return fmt.Sprintf("not quiet by the quiet gate's rule (%s): %s. This scenario has no quiet gate (gates.quiet), so the runs start now: "+
			"the contention gate judges every measured window and the record marks the contended runs; gates: {quiet: {}} waits for a quiet host instead%s",
			rule, blocksText(h.Blocks), slow)
	case h.Quiet():
		return fmt.Sprintf("quiet by the quiet gate's rule (%s); each run waits for %v of quiet, at most %v%s", rule, q.Window, q.MaxWait, slow)
	}
	return fmt.Sprintf("not quiet by the quiet gate's rule (%s): %s. The first run waits up to %v for %v of quiet (progress below); if none comes, on_busy: %s: %s%s",
		rule, blocksText(h.Blocks), q.MaxWait, q.Window, q.OnBusy, onBusyText(q.OnBusy), slow)
}

// onBusyText says what on_busy does once the wait runs out.
func onBusyText(a schema.BusyAction) string {
	switch a {
	case schema.BusyAbort:
		return "the campaign stops there, its record INCOMPLETE and resumable"
	case schema.BusyMark:
		return "the runs go on, each counted as contended in the record; while the host stays busy, later runs look once and go on"
	}
	return "the runs go on, and the record says which started on a busy host; while the host stays busy, later runs look once and go on"
}

// shownBlocks is how many processes blocksText names.
const shownBlocks = 3

// blocksText says what kept the host from being quiet: each process once
// (on the deny list, its CPU share), at most shownBlocks of them, and the
// host's conditions.
func blocksText(bs []machine.QuietBlock) string {
	var out, procs []string
	said := map[int]int{} // pid → index in procs
	more := 0
	for _, b := range bs {
		switch b.Reason {
		case machine.QuietBusyProcess, machine.QuietDeniedProcess:
			what := fmt.Sprintf("uses %s of a core", pct.Fixed(b.Cores, 0))
			if b.Reason == machine.QuietDeniedProcess {
				what = "is on the deny list"
			}
			if i, ok := said[b.PID]; ok {
				procs[i] += " and " + what
				continue
			}
			if len(procs) == shownBlocks {
				more++
				continue
			}
			said[b.PID] = len(procs)
			procs = append(procs, fmt.Sprintf("%s (pid %d) %s", b.Name, b.PID, what))
		case machine.QuietOnBattery:
			out = append(out, "the host is on battery")
		case machine.QuietLowPowerMode:
			out = append(out, "low-power mode is on")
		case machine.QuietThermal:
			out = append(out, "the thermal state is not nominal ("+strings.TrimSpace(b.Value)+")")
		default:
			out = append(out, fmt.Sprintf("%s (%s)", b.Reason, b.Value))
		}
	}
	if more > 0 {
		procs = append(procs, fmt.Sprintf("%d more", more))
	}
	return strings.Join(append(procs, out...), ", ")
}

// quietProgress is the wait's progress: the run's phase, every sample on
// a live line, every quietEvery in a log.
func (c *campaign) quietProgress(slot Slot) func(machine.QuietProgress) {
	var last time.Time
	return func(p machine.QuietProgress) {
		if !c.opt.Live && !last.IsZero() && time.Since(last) < quietEvery {
			return
		}
		last = time.Now()
		s := fmt.Sprintf("waiting for a quiet host, %v of at most %v: ", p.Waited.Round(time.Second), p.MaxWait)
		if len(p.Blocks) == 0 {
			s += fmt.Sprintf("quiet for %v of %v", p.QuietFor.Round(time.Second), p.Window)
		} else {
			s += blocksText(p.Blocks)
		}
		c.progress.Phase(slot.Seq, slot.Arm, s)
	}
}
