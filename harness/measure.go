package harness

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/decodebench/decodebench/machine"
	"github.com/decodebench/decodebench/schema"
)

var errInterrupted = errors.New("interrupted")

// Interrupt is the cause a command gives the campaign's context when a
// signal cancels it (context.WithCancelCause); the record names the
// signal, and its exit code follows (schema.Record.ExitCode).
type Interrupt struct{ Signal string }

func (i Interrupt) Error() string { return "interrupted by " + i.Signal }

// interruptedBy is the signal that cancelled ctx, if one did.
func interruptedBy(ctx context.Context) string {
	var i Interrupt
	if errors.As(context.Cause(ctx), &i) {
		return i.Signal
	}
	return ""
}

// waitBefore cools down and holds the run until the host is quiet,
// timing each in the run's phases. A fixed cooldown is watched by the
// quiet gate as it passes (the host's other processes are as much the
// gate's business then as after it): the gate's window may begin with the
// cooldown, and QuietS is only what the gate held the run past its end.
// An adaptive cooldown (until_quiet) reads the host's load itself and
// runs before the gate.
func (c *campaign) waitBefore(ctx context.Context, slot Slot, run *schema.Run) {
	ph := run.Phases
	sched := c.policy.Schedule
	// The last run's quiet window is this run's credit alone.
	credit := c.credit
	c.credit = nil
	cools := !c.lastEnd.IsZero() && (sched.Cooldown > 0 || sched.UntilQuiet != nil)
	if cools && sched.UntilQuiet == nil && c.policy.Gates.Quiet != nil {
		c.watchedCooldown(ctx, slot, run, credit)
		return
	}
	if cools {
		lap := time.Now()
		run.Cooldown = c.cooldown(ctx, slot)
		ph.CooldownS = time.Since(lap).Seconds()
		if ctx.Err() != nil {
			return
		}
	}
	if sched.UntilQuiet != nil {
		credit = nil // the adaptive cooldown's wait is between, unjudged by the gate's rule
	}
	lap := time.Now()
	if run.Quiet = c.quietGate(ctx, slot, true, nil, credit, nil); run.Quiet != nil {
		ph.QuietS = time.Since(lap).Seconds()
	}
}

// watchedCooldown is a fixed cooldown with the quiet gate watching it
// from its start (and, given credit, from the last run's measured window);
// the run goes on once both have ended. The gate watches on until the
// cooldown's end at least, and on the overlap until the run is ready to
// measure (its hold), however early its window held: the credit shortens
// the wait, it does not move the window back.
func (c *campaign) watchedCooldown(ctx context.Context, slot Slot, run *schema.Run, credit *machine.QuietCredit) {
	cool := c.policy.Schedule.Cooldown
	c.progress.Phase(slot.Seq, slot.Arm, fmt.Sprintf("cooldown %v, waiting for a quiet host (%v) from its start", cool, c.policy.Gates.Quiet.Window))
	lap := time.Now()
	gate := make(chan *schema.QuietWait, 1)
	watch := &gateWatch{}
	hold := make(chan struct{})
	release := sync.OnceFunc(func() { close(hold) })
	go func() { gate <- c.quietGate(ctx, slot, false, watch, credit, hold) }()
	select {
	case <-time.After(cool):
	case <-ctx.Done():
	}
	run.Phases.CooldownS = time.Since(lap).Seconds()
	if c.overlapGate(ctx, watch) {
		// The engine starts and warms up while the gate watches on
		// (gateoverlap.go); the run releases and awaits it before its
		// window.
		c.pending = &pendingGate{result: gate, watch: watch, release: release}
		return
	}
	release()
	lap = time.Now()
	run.Quiet = <-gate
	if held := time.Since(lap).Seconds(); held > 0.001 {
		run.Phases.QuietS = held
	}
}

// measure cools down, runs one slot, samples load around it, and journals
// the run. It returns errInterrupted, without journaling, when ctx is done
// before the run finished: an interrupted run is not a finished run.
func (c *campaign) measure(ctx context.Context, slot Slot, attempt int) (_ schema.Run, err error) {
	if ctx.Err() != nil {
		return schema.Run{Seq: slot.Seq, Round: slot.Round, Arm: slot.Arm}, errInterrupted // stopped between runs: nothing cut off
	}
	began := time.Now()
	defer func() {
		// A stop (an interrupt, a busy host) cut this run off, on any path.
		var busy errBusyHost
		if errors.Is(err, errInterrupted) || errors.As(err, &busy) {
			c.cutOff = time.Since(began)
		}
	}()
	ph := &schema.Phases{}
	run := schema.Run{Seq: slot.Seq, Round: slot.Round, Arm: slot.Arm, Phases: ph}
	if attempt > 1 {
		run.Attempt = attempt
	}
	c.waitBefore(ctx, slot, &run)
	if ctx.Err() != nil {
		c.settleGate(&run) // the gate, if pending, ends with ctx
		return run, errInterrupted
	}
	if q := run.Quiet; q != nil && q.OnBusy == schema.BusyAbort {
		return run, errBusyHost{q}
	}
	if !c.lastEnd.IsZero() {
		run.CooldownS = time.Since(c.lastEnd).Seconds()
	}
	run.ConditionsBefore = c.conditions(ctx)
	if l, err := c.sampler.Sample(ctx); err == nil {
		run.LoadBefore = &l
	}
	run.Start = time.Now().Round(0)
	err = c.engines.check(slot.Arm)
	if err == nil {
		err = c.exec.Execute(ctx, slot, &run)
	}
	// The run's engine is stopped: its log is as the run left it.
	c.sealFile(run.Log)
	if c.pending != nil {
		// The run ended before it awaited the gate it went on beside
		// (its engine did not start, or its files changed): the gate's
		// result is still the run's, its wait the run's quiet phase, and
		// on_busy: abort stops the campaign as before a start.
		if gerr := c.settleGate(&run); gerr != nil && ctx.Err() == nil {
			return run, gerr
		}
	}
	run.Seconds = time.Since(run.Start).Seconds()
	if l, err := c.sampler.Sample(context.WithoutCancel(ctx)); err == nil {
		run.LoadAfter = &l
	}
	run.ConditionsAfter = c.conditions(ctx)
	c.lastEnd = time.Now()
	if err != nil && ctx.Err() != nil {
		return run, errInterrupted
	}
	var busy errBusyHost
	if errors.As(err, &busy) {
		return run, busy
	}
	if err != nil {
		run.Error = clipError(err.Error())
	}
	ph.SpanS = time.Since(began).Seconds()
	// The analysis sees exactly what is stored: the redacted run, every
	// number in it finite.
	c.redact.Walk(&run)
	rehashStored(&run)
	finiteRun(&run)
	if err := c.journal.Append(run); err != nil {
		return run, err
	}
	c.rec.Runs = append(c.rec.Runs, run)
	c.progress.RunDone(slot.Seq, slot.Arm, time.Duration(run.Seconds*float64(time.Second)), c.runSummary(run))
	if !run.OK() {
		c.progress.Printf("run %d failed: %s", slot.Seq, run.Error)
	}
	return run, nil
}

// phasesOf is the run's phases, made when the run has none yet.
func phasesOf(run *schema.Run) *schema.Phases {
	if run.Phases == nil {
		run.Phases = &schema.Phases{}
	}
	return run.Phases
}
