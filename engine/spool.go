package engine

import (
	"bytes"
	"os"
	"sync/atomic"
	"time"

	"github.com/decodebench/decodebench/internal/anonfile"
)

// The engine writes its output straight into a spool: an anonymous file
// (memfd on Linux, an unlinked temporary file elsewhere) that has no name
// anyone can open, and that disappears with the last process holding it.
// decodebench copies what is new into the log file, redacted, when it
// chooses: every followEvery outside the measured window, and inside it
// only when the engine floods (spoolguard.go). Through a pipe every line
// the engine wrote during the window woke decodebench on the engine's
// cores; about a quarter of its footprint.
//
// Nothing pushes back on an engine writing into a file, so the log reads
// in bounded steps: each copy goes at most to where the spool ended when
// it began (an engine writing faster than decodebench copies cannot keep
// it copying), a spoolStep at a time with the lock released between steps
// (starting, marking and stopping wait for one step, not for the flood),
// and what was read is freed as it goes. What bounds the unread part is
// the guard (spoolguard.go).

// followEvery is how often the log file catches up with the spool outside
// the measured window.
const followEvery = 250 * time.Millisecond

// spoolStep is what one step of a copy reads while holding the lock;
// punchEvery how much is read between two frees of what was read.
const (
	spoolStep  = 256 << 10
	punchEvery = 1 << 20
)

// spoolState is the Log's side of the spool; Log's mu guards it.
type spoolState struct {
	// spool is where the engine writes, read from spoolOff; punched is
	// how much of it was freed.
	spool    *os.File
	spoolOff int64
	punched  int64
	spoolBuf []byte
	// follow copies the spool into the file outside the measured window.
	follow *time.Timer
	// guard measures it without the lock (spoolguard.go); overflow is,
	// once the spool is closed, why the guard killed the engine.
	guard    atomic.Pointer[spoolGuard]
	overflow string
	// out holds what is bound for the file until the step, the marker or
	// the write that made it ends: a syscall a line made a flood of short
	// lines cost seconds under the lock.
	out []byte
}

// flushLocked writes out to the file, remembering the first failure.
func (l *Log) flushLocked() {
	if len(l.out) > 0 && l.err == nil && l.f != nil {
		if _, err := l.f.Write(l.out); err != nil {
			l.err = err
		}
	}
	l.out = l.out[:0]
}

// Spool creates the spool the engine's standard output and error are to be
// given, and starts following it into the log. The returned file is the
// Log's: it is closed by Close.
func (l *Log) Spool() (*os.File, error) {
	f, err := anonfile.New("engine-output")
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.spool = f
	l.follow = time.AfterFunc(followEvery, l.catchUp)
	l.guard.Store(startSpoolGuard(f, l.drainKicked))
	return f, nil
}

// catchUp copies the spool's new output into the log, then waits for the
// next turn, unless the window is open (EndWindow restarts it) or the log
// is closed.
func (l *Log) catchUp() {
	l.drainSteps(true)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.spool != nil && !l.inWindow {
		l.follow.Reset(followEvery)
	}
}

// drainKicked is the guard's catch-up, inside the window as outside.
func (l *Log) drainKicked() { l.drainSteps(false) }

// drainSteps copies the spool up to where it ends now, a step at a time,
// taking the lock for each step; outside only, it stops when the window
// opens.
func (l *Log) drainSteps(outside bool) {
	end := int64(-1)
	for {
		l.mu.Lock()
		if l.spool == nil || (outside && l.inWindow) {
			l.mu.Unlock()
			return
		}
		if end < 0 {
			end = l.spoolEnd()
		}
		more := l.drainStepLocked(end)
		l.mu.Unlock()
		if !more {
			return
		}
	}
}

// spoolEnd is the spool's size now.
func (l *Log) spoolEnd() int64 {
	fi, err := l.spool.Stat()
	if err != nil {
		return 0
	}
	return fi.Size()
}

// drainLocked copies what the engine wrote before the call (not what it
// writes meanwhile), freeing what it read as it goes.
func (l *Log) drainLocked() {
	if l.spool == nil {
		return
	}
	for end := l.spoolEnd(); l.drainStepLocked(end); {
	}
}

// drainStepLocked copies at most spoolStep of the spool, not past end, and
// reports whether there is more before end.
func (l *Log) drainStepLocked(end int64) bool {
	if l.spoolBuf == nil {
		l.spoolBuf = make([]byte, spoolStep)
	}
	want := min(int64(len(l.spoolBuf)), end-l.spoolOff)
	// Once the guard killed the engine, what cannot reach the log's tail
	// is counted as cut, not copied line by line: a stop after a flood
	// of short lines took minutes.
	skip := l.guard.Load().over.Load() > 0 && l.cutting && end-l.spoolOff > LogTailBytes
	if skip {
		want = min(want, end-LogTailBytes-l.spoolOff)
	}
	if want <= 0 {
		return false
	}
	n, err := l.spool.ReadAt(l.spoolBuf[:want], l.spoolOff)
	if n > 0 {
		l.spoolOff += int64(n)
		l.guard.Load().read.Store(l.spoolOff)
		if skip {
			l.skipLocked(l.spoolBuf[:n])
		} else {
			l.writeLocked(l.spoolBuf[:n], &l.partial)
		}
	}
	// What was copied is freed: the spool (on Linux, memory) holds only
	// what the log has not read yet.
	l.flushLocked()
	if l.spoolOff-l.punched >= punchEvery && anonfile.PunchHole(l.spool, l.spoolOff) == nil {
		l.punched = l.spoolOff
	}
	return n == int(want) && err == nil && l.spoolOff < end
}

// skipLocked counts engine output as cut from the log, unread.
func (l *Log) skipLocked(p []byte) {
	l.last = time.Now()
	if l.inWindow {
		l.windowBytes += int64(len(p))
	}
	l.cutBytes += int64(len(p) + len(l.partial))
	l.cutLines += int64(bytes.Count(p, []byte{'\n'}))
	l.partial = l.partial[:0]
}

// closeSpoolLocked drains the spool one last time and closes it.
func (l *Log) closeSpoolLocked() {
	if l.spool == nil {
		return
	}
	l.follow.Stop()
	g := l.guard.Load()
	g.stop()
	l.drainLocked()
	l.spool.Close()
	l.spool = nil
	l.overflow = g.overflowText()
}
