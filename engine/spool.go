package engine

import (
	"io"
	"os"
	"time"

	"github.com/decodebench/decodebench/internal/anonfile"
)

// The engine writes its output straight into a spool: an anonymous file
// (memfd on Linux, an unlinked temporary file elsewhere) that has no name
// anyone can open, and that disappears with the last process holding it.
// decodebench copies what is new into the log file, redacted, when it
// chooses: every followEvery outside the measured window, and never inside
// it. Through a pipe every line the engine wrote during the window woke
// decodebench on the engine's cores; about a quarter of its footprint.

// followEvery is how often the log file catches up with the spool outside
// the measured window.
const followEvery = 250 * time.Millisecond

// Inside the window the spool is only measured, every spoolCheckEvery (a
// stat, no read): when the engine has written more than MaxSpoolBacklog
// that the log has not read, the log catches up then, so that an engine
// flooding its output in a long window cannot fill memory with the spool
// (a memfd is memory). Such a window is a flood (FloodBytes) anyway.
const (
	spoolCheckEvery = time.Second
	MaxSpoolBacklog = 64 << 20
)

// checkSpool is the in-window measure of the spool; it reschedules itself
// until the window ends.
func (l *Log) checkSpool() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.spool == nil || !l.inWindow {
		return
	}
	if fi, err := l.spool.Stat(); err == nil && fi.Size()-l.spoolOff > MaxSpoolBacklog {
		l.drainLocked()
	}
	l.watch.Reset(spoolCheckEvery)
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
	return f, nil
}

// catchUp copies the spool's new output into the log, then waits for the
// next turn, unless the window is open (EndWindow restarts it) or the log
// is closed.
func (l *Log) catchUp() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.spool == nil || l.inWindow {
		return
	}
	l.drainLocked()
	l.follow.Reset(followEvery)
}

// drainLocked copies everything the engine wrote since the last call.
func (l *Log) drainLocked() {
	if l.spool == nil {
		return
	}
	if l.spoolBuf == nil {
		l.spoolBuf = make([]byte, 64<<10)
	}
	buf := l.spoolBuf
	for {
		n, err := l.spool.ReadAt(buf, l.spoolOff)
		if n > 0 {
			l.spoolOff += int64(n)
			l.writeLocked(buf[:n])
		}
		if err == io.EOF || n < len(buf) || err != nil {
			break
		}
	}
	// What was copied is freed: the spool of a long-running engine (on
	// Linux, memory) holds only what the log has not read yet.
	if l.spoolOff-l.punched >= 1<<20 && anonfile.PunchHole(l.spool, l.spoolOff) == nil {
		l.punched = l.spoolOff
	}
}

// closeSpoolLocked drains the spool one last time and closes it.
func (l *Log) closeSpoolLocked() {
	if l.spool == nil {
		return
	}
	l.follow.Stop()
	if l.watch != nil {
		l.watch.Stop()
	}
	l.drainLocked()
	l.spool.Close()
	l.spool = nil
}
