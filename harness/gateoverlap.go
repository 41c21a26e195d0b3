package harness

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sync/atomic"
	"time"

	"github.com/decodebench/decodebench/machine"
	"github.com/decodebench/decodebench/schema"
)

// The quiet gate asks for its window of quiet before the measured window,
// and it watches the host from the start of a fixed cooldown. Where the
// host has stayed quiet through the cooldown, a server engine's run starts
// its engine and sends its warmups while the gate watches on (the engine
// and decodebench are the campaign's own processes, which the gate never
// counts), and the measured window opens only once the gate has seen its
// whole window of quiet: the engine's start and warmups take the place of
// part of the wait instead of coming after it. Where the gate sees the
// host busy before the cooldown's end, the run waits for it first, as
// without the overlap; where it sees it busy during the warmups, the run
// waits for it and then sends its warmups again, so that the measured
// window follows them as closely as it does after a quiet wait.

// gateWatch is what the gate saw while a run overlapped it.
type gateWatch struct {
	// overlap: the run has gone on while the gate watches.
	overlap atomic.Bool
	// blocked: a sample found the host busy; busyInOverlap: one found
	// another process busy (not a condition such as a thermal state,
	// which the warmups may have caused) after overlap was set.
	blocked, busyInOverlap atomic.Bool
}

// progress wraps the gate's progress: it notes the samples that found the
// host busy, and keeps the run's phase line to the run's own phases while
// the gate watches quietly beside them.
func (w *gateWatch) progress(show func(machine.QuietProgress)) func(machine.QuietProgress) {
	return func(p machine.QuietProgress) {
		if len(p.Blocks) > 0 {
			w.blocked.Store(true)
			if w.overlap.Load() && slices.ContainsFunc(p.Blocks, func(b machine.QuietBlock) bool {
				return b.Reason == machine.QuietBusyProcess || b.Reason == machine.QuietDeniedProcess
			}) {
				w.busyInOverlap.Store(true)
			}
		}
		if !w.overlap.Load() || len(p.Blocks) > 0 {
			show(p)
		}
	}
}

// gateOverlapper is an Executor that goes on beside a pending quiet gate
// and awaits it (campaign.awaitGate) before its measured window.
type gateOverlapper interface{ awaitsGate() bool }

// awaitsGate implements gateOverlapper: runOne awaits the gate after the
// warmups.
func (serverExecutor) awaitsGate() bool { return true }

// pendingGate is a gate the run has gone on beside (c.pending).
type pendingGate struct {
	result chan *schema.QuietWait
	watch  *gateWatch
	// release ends the gate's hold: the run is ready to measure.
	release func()
	got     *schema.QuietWait
	done    bool
}

// endedWithin reports whether the gate ends within d, keeping its result.
func (p *pendingGate) endedWithin(d time.Duration) bool {
	if !p.done {
		select {
		case p.got = <-p.result:
			p.done = true
		case <-time.After(d):
		}
	}
	return p.done
}

// wait is the gate's result, once it has ended.
func (p *pendingGate) wait() *schema.QuietWait {
	if !p.done {
		p.got, p.done = <-p.result, true
	}
	return p.got
}

// overlapGate reports whether the run may go on beside the gate, which
// has watched the cooldown: an executor that awaits it (a server
// engine's; a command engine's warmups are processes of their own, and
// its executor does not), and a host found quiet throughout so far. Setting overlap before reading blocked leaves
// no moment in which a busy sample is noted by neither.
func (c *campaign) overlapGate(ctx context.Context, w *gateWatch) bool {
	if o, ok := c.exec.(gateOverlapper); !ok || !o.awaitsGate() || ctx.Err() != nil || c.containerEngine() {
		return false
	}
	w.overlap.Store(true)
	if w.blocked.Load() {
		w.overlap.Store(false)
		return false
	}
	return true
}

// containerEngine reports whether some arm launches its engine through a
// container runtime: the engine then runs under the runtime's daemon, not
// in decodebench's process tree, and the gate would count its start and
// warmups as another process's load.
func (c *campaign) containerEngine() bool {
	for _, e := range c.scenario.Engines() {
		if n := filepath.Base(e.Launch.Binary()); n == "docker" || n == "podman" {
			return true
		}
	}
	return false
}

// awaitGate holds a run that went on beside the quiet gate, once its
// warmups are served, until the gate has seen its window of quiet. The
// time it held the run past the warmups is the run's quiet phase. It
// returns whether the warmups are to be sent again: the gate saw another
// process busy while the run went on, and then waited for its window of
// quiet (a gate that gave up goes on at once, and warming up again would
// only cost time); and errBusyHost where the gate gave up and the
// scenario says on_busy: abort. A run with no pending gate returns at
// once.
func (c *campaign) awaitGate(slot Slot, run *schema.Run) (rewarm bool, err error) {
	p := c.pending
	if p == nil {
		return false, nil
	}
	// Released, a gate whose window holds ends at once.
	lap := time.Now()
	if p.release != nil {
		p.release()
	}
	if !p.endedWithin(50 * time.Millisecond) {
		c.progress.Phase(slot.Seq, slot.Arm, fmt.Sprintf("waiting for a quiet host (%v) before measuring", c.policy.Gates.Quiet.Window))
	}
	if err := c.settleGateFrom(run, lap); err != nil {
		return false, err
	}
	return p.watch.busyInOverlap.Load() && run.Quiet != nil && run.Quiet.EndedBy != schema.QuietMaxWait, nil
}

// settleGate takes the pending gate's result into the run, timing what it
// held the run into its quiet phase, and clears it: errBusyHost where the
// gate gave up and the scenario says on_busy: abort. Nil at once where no
// gate is pending.
func (c *campaign) settleGate(run *schema.Run) error { return c.settleGateFrom(run, time.Now()) }

// settleGateFrom is settleGate with the run held from lap on.
func (c *campaign) settleGateFrom(run *schema.Run, lap time.Time) error {
	p := c.pending
	if p == nil {
		return nil
	}
	c.pending = nil
	if p.release != nil {
		p.release()
	}
	run.Quiet = p.wait()
	if held := time.Since(lap).Seconds(); held > 0.001 {
		phasesOf(run).QuietS += held
	}
	if q := run.Quiet; q != nil && q.OnBusy == schema.BusyAbort {
		return errBusyHost{q}
	}
	return nil
}
