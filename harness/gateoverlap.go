package harness

import (
	"context"
	"fmt"
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
	// blocked: a sample found the host busy; blockedInOverlap: one did
	// after overlap was set.
	blocked, blockedInOverlap atomic.Bool
}

// progress wraps the gate's progress: it notes the samples that found the
// host busy, and keeps the run's phase line to the run's own phases while
// the gate watches quietly beside them.
func (w *gateWatch) progress(show func(machine.QuietProgress)) func(machine.QuietProgress) {
	return func(p machine.QuietProgress) {
		if len(p.Blocks) > 0 {
			w.blocked.Store(true)
			if w.overlap.Load() {
				w.blockedInOverlap.Store(true)
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
}

// overlapGate reports whether the run may go on beside the gate, which
// has watched the cooldown: an executor that awaits it (a server
// engine's; a command engine's warmups are processes of their own, and
// its executor does not), and a host found quiet throughout so far. Setting overlap before reading blocked leaves
// no moment in which a busy sample is noted by neither.
func (c *campaign) overlapGate(ctx context.Context, w *gateWatch) bool {
	if o, ok := c.exec.(gateOverlapper); !ok || !o.awaitsGate() || ctx.Err() != nil {
		return false
	}
	w.overlap.Store(true)
	if w.blocked.Load() {
		w.overlap.Store(false)
		return false
	}
	return true
}

// awaitGate holds a run that went on beside the quiet gate, once its
// warmups are served, until the gate has seen its window of quiet. The
// time it held the run past the warmups is the run's quiet phase. It
// returns whether the gate saw the host busy while the run went on, so
// the warmups are to be sent again, and errBusyHost where the gate gave
// up and the scenario says on_busy: abort. A run with no pending gate
// returns at once.
func (c *campaign) awaitGate(slot Slot, run *schema.Run) (rewarm bool, err error) {
	p := c.pending
	if p == nil {
		return false, nil
	}
	c.pending = nil
	lap := time.Now()
	select {
	case run.Quiet = <-p.result:
	default:
		c.progress.Phase(slot.Seq, slot.Arm, fmt.Sprintf("waiting for a quiet host (%v) before measuring", c.policy.Gates.Quiet.Window))
		run.Quiet = <-p.result
	}
	if held := time.Since(lap).Seconds(); held > 0.001 {
		phasesOf(run).QuietS += held
	}
	if q := run.Quiet; q != nil && q.OnBusy == schema.BusyAbort {
		return false, errBusyHost{q}
	}
	return p.watch.blockedInOverlap.Load(), nil
}
