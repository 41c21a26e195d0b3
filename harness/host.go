package harness

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/machine"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// hostState is what the campaign measured of the host before its first
// run: the baselines the adaptive cooldown returns to.
type hostState struct {
	baselineCPU float64
	baselineGPU map[int]float64
	// busy: a quiet wait ran out, and no run has found the host quiet
	// since (quietGate).
	busy bool
	// For tests: replace the machine's readers.
	waitQuiet  func(context.Context, machine.QuietConfig) machine.QuietResult
	check      func(context.Context, machine.QuietConfig, time.Duration) machine.HostCheck
	coolDown   func(context.Context, machine.CooldownConfig) machine.CooldownResult
	conditions func(context.Context) machine.Conditions
	// gpu samples the NVIDIA GPUs through every measured window; nil
	// without them.
	gpu *machine.GPUSampler
	// power is macOS powermetrics, run through the campaign when it
	// judges energy; powerWhy says why it is not (on macOS only).
	power    *machine.PowermetricsSampler
	powerWhy string
}

// readHost reads the platform telemetry into the record's machine section
// and measures the baselines, once per campaign (a resumed campaign
// measures them again: the host may have changed).
func (c *campaign) readHost(ctx context.Context) {
	if c.host.conditions == nil {
		c.host.conditions = machine.ReadConditions
	}
	tel := machine.ReadTelemetry(ctx)
	cond := c.host.conditions(ctx)
	c.rec.Machine.Telemetry = tel.Record(cond)
	c.host.baselineGPU = map[int]float64{}
	for _, g := range cond.GPUs {
		if g.TempC != nil {
			c.host.baselineGPU[g.Index] = *g.TempC
		}
	}
	if len(cond.GPUs) > 0 && c.host.gpu == nil {
		interval := machine.DefaultGPUSampleInterval
		if wantsEnergy(c.policy) {
			interval = machine.EnergySampleInterval
		}
		g, err := machine.StartGPUSampler(ctx, interval)
		if err != nil {
			msg := "nvidia-smi sampler: " + err.Error()
			c.rec.Machine.Telemetry.Unavailable = append(c.rec.Machine.Telemetry.Unavailable, msg)
			c.progress.Printf("the GPUs will not be sampled during the measured windows: %s", msg)
		}
		c.host.gpu = g
	}
	c.startPowermetrics()
	if c.policy.Schedule.UntilQuiet != nil {
		// The machine's idle CPU load over a second, before any engine ran.
		s := machine.NewSampler()
		if _, err := s.Sample(ctx); err == nil {
			select {
			case <-time.After(time.Second):
			case <-ctx.Done():
			}
			if l, err := s.Sample(ctx); err == nil {
				c.host.baselineCPU = l.CPUBusyPct
			}
		}
	}
	if q := c.policy.Gates.Quiet; q != nil {
		c.rec.Method.Quiet = quietString(q)
	}
}

func quietString(q *scenarios.QuietPolicy) string {
	deny := "the default deny list"
	if len(q.Deny) > 0 {
		deny += fmt.Sprintf(" and %v", q.Deny)
	}
	rule := fmt.Sprintf("a continuous %v (sampled every %v) with no other process above %s of one core and none on %s, on AC power, low-power mode off, thermal state nominal where readable",
		q.Window, q.Interval, scenarios.Fraction(q.MaxCPU), deny)
	credit := " (a run's measured window counts toward the next run's window where it was as quiet)"
	return rule + credit + fmt.Sprintf("; at most %v, then on_busy: %s", q.MaxWait, q.OnBusy)
}

// genericLaunchers are command names that say nothing about the engine: a
// process of that name elsewhere is not another engine instance.
var genericLaunchers = []string{"sh", "bash", "zsh", "env", "python", "python3", "uv", "uvx", "conda", "docker", "podman", "nice", "taskset", "numactl", "sudo", "time"}

// cooldown waits between runs: the fixed time, or until the host is back
// at its baseline. It returns what the run's record says about it; nil for
// a fixed cooldown (its length is CooldownS).
func (c *campaign) cooldown(ctx context.Context, slot Slot) *schema.CooldownWait {
	if c.lastEnd.IsZero() {
		return nil
	}
	if u := c.policy.Schedule.UntilQuiet; u != nil {
		c.progress.Phase(slot.Seq, slot.Arm, fmt.Sprintf("cooldown until quiet (%v–%v)", u.Min, u.Max))
		cool := c.host.coolDown
		if cool == nil {
			cool = machine.CoolDown
		}
		res := cool(ctx, machine.CooldownConfig{Min: u.Min, Max: u.Max, BaselineCPUPct: c.host.baselineCPU, BaselineGPUTempC: c.host.baselineGPU, Conditions: c.host.conditions})
		return res.Record()
	}
	if d := c.policy.Schedule.Cooldown; d > 0 {
		c.progress.Phase(slot.Seq, slot.Arm, "cooldown "+d.String())
		select {
		case <-time.After(d):
		case <-ctx.Done():
		}
	}
	return nil
}

// errBusyHost stops the campaign when the quiet gate gave up and the
// scenario says on_busy: abort.
type errBusyHost struct{ q *schema.QuietWait }

func (e errBusyHost) Error() string {
	return fmt.Sprintf("the host was not quiet after %.0fs (on_busy: abort)", e.q.WaitedS)
}

// quietGate holds the run until the host is quiet (gates.quiet). Once a
// wait ran out, the host is taken as busy: later runs look once and go on
// (on_busy) while it stays busy, and wait again in full once a run finds
// it quiet, so that a busy host costs one max_wait, not one per run.
// announce: the progress line's phase says "waiting for a quiet host"
// (a caller whose phase already says so, as it overlaps the cooldown,
// gives false); watch, where given, notes what the gate sees while a run
// goes on beside it (gateoverlap.go); credit, where given, is the quiet
// the previous run's measured window showed (campaign.credit); hold,
// where given, keeps the gate watching past its window until the run
// closes it (machine.QuietConfig.Hold).
func (c *campaign) quietGate(ctx context.Context, slot Slot, announce bool, watch *gateWatch, credit *machine.QuietCredit, hold <-chan struct{}) *schema.QuietWait {
	q := c.policy.Gates.Quiet
	if q == nil {
		return nil
	}
	if announce {
		c.progress.Phase(slot.Seq, slot.Arm, fmt.Sprintf("waiting for a quiet host (%v)", q.Window))
	}
	wait := c.host.waitQuiet
	if wait == nil {
		wait = machine.WaitQuiet
	}
	cfg := c.quietConfig()
	cfg.GiveUpWhenBusy, cfg.Progress, cfg.Credit, cfg.Hold = c.host.busy, c.quietProgress(slot), credit, hold
	if watch != nil {
		cfg.Progress = watch.progress(cfg.Progress)
	}
	res := wait(ctx, cfg)
	out := res.Record()
	switch res.EndedBy {
	case machine.QuietTimedOut:
		out.OnBusy, out.Recheck = q.OnBusy, c.host.busy
		if !c.host.busy {
			// The limit, not the time waited: the last look ends a
			// sampling interval past max_wait, and "after 5s" for a
			// 4s max_wait reads as a gate that ignored its setting.
			// The last look may have found nothing to name (the host
			// busy in all, no one process over the line): no "()".
			why := ""
			if b := blocksText(res.Last); b != "" {
				why = " (" + b + ")"
			}
			c.progress.Printf("run %d: the host was not quiet after %v%s; on_busy: %s: %s", slot.Seq, q.MaxWait, why, q.OnBusy, onBusyText(q.OnBusy))
		}
		c.host.busy = true
	case machine.QuietReached:
		if c.host.busy {
			c.progress.Printf("run %d: the host is quiet again: runs wait for quiet in full (at most %v) again", slot.Seq, q.MaxWait)
		}
		c.host.busy = false
	}
	return out
}

// conditions reads the host's conditions now, for a run's record.
func (c *campaign) conditions(ctx context.Context) *schema.HostConditions {
	if c.host.conditions == nil {
		return nil
	}
	return c.host.conditions(context.WithoutCancel(ctx)).Record()
}

// stopGPUSampler ends the in-window samplers (NVIDIA's, powermetrics), if
// they run.
func (c *campaign) stopGPUSampler() {
	if c.host.gpu != nil {
		c.host.gpu.Stop()
		c.host.gpu = nil
	}
	if c.host.power != nil {
		c.host.power.Stop()
		c.host.power = nil
	}
}

// gpuWindow reads the GPU samples stamped inside the measured window, and
// the window's energy from the power samples taken through it: the NVIDIA
// GPUs' or powermetrics' (nil without either).
func (c *campaign) gpuWindow(resp *engine.Response) (*schema.GPUWindow, *schema.Energy) {
	from, to := resp.Start, resp.Start.Add(resp.Wall)
	switch {
	case c.host.power != nil:
		return nil, c.host.power.Window(from, to)
	case c.host.powerWhy != "":
		return nil, &schema.Energy{Unavailable: c.host.powerWhy}
	case c.host.gpu == nil:
		return nil, nil
	}
	w, e := c.host.gpu.WindowSummary(from, to)
	if e != nil && e.Unavailable != "" {
		e.Unavailable = "GPU power: " + e.Unavailable
	}
	return w, e
}

// enginePIDFile is the data folder's record of the running engine.
const enginePIDFile = recorder.PIDFile

// engineRegistry is this user's folder of running engines' pid files,
// beside the host lock, where the next campaign finds an engine left by a
// dead one. It is created owner-only (0700) and used only while it is a
// state folder (safefs.StateDir): this user's, under folders no one else
// may write (the temporary directory is shared: another user could plant
// pid files and links), in no git work tree.
func engineRegistry() (string, error) {
	dir := filepath.Join(filepath.Dir(machine.LockPath()), fmt.Sprintf("decodebench-engines-%d", os.Geteuid()))
	if err := safefs.StateDir(dir); err != nil {
		return "", fmt.Errorf("engine registry not used: %w", err)
	}
	return dir, nil
}

// pidFiles are where the running engine is recorded: the data folder and
// the host registry.
func (c *campaign) pidFiles() []string {
	files := []string{filepath.Join(c.dataDir, enginePIDFile)}
	if reg, err := engineRegistry(); err == nil {
		sum := sha256.Sum256([]byte(c.dataDir))
		files = append(files, filepath.Join(reg, hex.EncodeToString(sum[:8])+".json"))
	}
	return files
}

// reapStale kills engines left running by dead campaigns: the one this
// data folder recorded (a resumed campaign) and any in the host registry.
// Only an engine whose pid and start time both match its record is
// killed.
func (c *campaign) reapStale() {
	files := []string{filepath.Join(c.dataDir, enginePIDFile)}
	if reg, err := engineRegistry(); err != nil {
		c.progress.Printf("%v", err)
	} else if m, err := filepath.Glob(filepath.Join(reg, "*.json")); err == nil {
		files = append(files, m...)
	}
	said := map[string]bool{}
	for _, what := range engine.ReapStaleTrees() {
		c.progress.Printf("%s", what)
	}
	for _, f := range files {
		if what, err := engine.ReapStale(f); err != nil {
			c.progress.Printf("%v", err)
		} else if what != "" && !said[what] {
			said[what] = true
			c.progress.Printf("%s", what)
		}
	}
}

// prepareHost readies the host for measuring: engines a killed campaign
// left are reaped, the host's baselines read, indexing paused and
// GOMAXPROCS frozen. It returns the restore of indexing, which the caller
// defers (a second call does nothing).
func (c *campaign) prepareHost(ctx context.Context) (restoreIndexing func()) {
	c.reapStale()
	c.readHost(ctx)
	restoreIndexing = c.pauseIndexing(ctx)
	freezeMaxProcs()
	return restoreIndexing
}
