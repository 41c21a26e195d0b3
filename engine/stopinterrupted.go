package engine

import (
	"context"
	"fmt"
	"io"
	"syscall"
	"time"
)

// InterruptGrace bounds the wait for an engine to exit on SIGTERM after
// the user interrupted decodebench (Ctrl-C, SIGTERM, SIGHUP): stop_grace
// may be hours, and an engine that ignores SIGTERM would hold the
// interrupted run silently that long, and a second signal then exits
// without a record.
const InterruptGrace = 5 * time.Second

// StopInterruptible is Stop for a campaign's run: when ctx is done (an
// interrupt) before or while it waits, it waits at most
// min(stop_grace, InterruptGrace) from then before SIGKILL, and says on
// say (a progress line naming the pid and the wait) when the engine does
// not exit at once.
func (s *Server) StopInterruptible(ctx context.Context, say io.Writer) error {
	return s.stop(ctx, say)
}

// stopSayAfter is how long an interrupted stop waits quietly: an engine
// that exits on SIGTERM at once needs no line.
const stopSayAfter = 300 * time.Millisecond

// awaitExit waits for the engine signalled with SIGTERM to exit, sending
// SIGKILL to its group after stop_grace, or sooner after an interrupt.
func (s *Server) awaitExit(ctx context.Context, pgid int, say io.Writer) {
	grace := s.grace
	deadline := time.NewTimer(grace)
	defer deadline.Stop()
	interrupted := ctx.Done()
	var sayC <-chan time.Time
	began := time.Now()
	for {
		select {
		case <-s.done:
			return
		case <-interrupted:
			interrupted = nil
			if left := time.Until(began.Add(s.grace)); left > InterruptGrace {
				grace = time.Since(began) + InterruptGrace
				deadline.Reset(InterruptGrace)
				if say != nil {
					sayC = time.After(stopSayAfter)
				}
			}
		case <-sayC:
			fmt.Fprintf(say, "interrupted: waiting up to %s for the engine (pid %d) to exit on SIGTERM; then SIGKILL\n", InterruptGrace, pgid)
		case <-deadline.C:
			s.Log.Mark("engine did not exit within %s of SIGTERM; sending SIGKILL", grace.Round(time.Millisecond))
			signalGroup(pgid, syscall.SIGKILL)
			<-s.done
			return
		}
	}
}
