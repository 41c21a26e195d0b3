package engine

import (
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// The guard bounds what the engine wrote and the log has not read yet:
// the spool is memory on Linux, and nothing pushes back on an engine that
// writes faster than decodebench copies. It measures the spool (a stat, no
// read) every spoolCheckEvery outside the measured window and every
// spoolCheckWindow inside it (decodebench stays off the engine's cores),
// sooner while the spool grows fast, without the log's lock, so a copy in
// progress never delays it: the spool holds at most MaxSpoolBacklog and
// what the engine writes in one such interval. Past
// spoolDrainAt unread it starts a copy (inside the window too: the window
// is a flood anyway); past MaxSpoolBacklog the engine is killed at once
// (its process group and tree), the log says why, and the run fails with
// that reason (Server.Exited, Log.Close).
const (
	spoolCheckEvery  = 20 * time.Millisecond
	spoolCheckWindow = 100 * time.Millisecond
	spoolCheckMin    = 5 * time.Millisecond
	spoolDrainAt     = MaxSpoolBacklog / 4
	MaxSpoolBacklog  = 64 << 20
)

type spoolGuard struct {
	f     *os.File
	drain func()
	// read is how much of the spool the log has read.
	read     atomic.Int64
	draining atomic.Bool
	window   atomic.Bool
	// over is the unread output that tripped the guard; 0 while it has
	// not.
	over atomic.Int64

	mu         sync.Mutex
	t          *time.Timer
	stopped    bool
	onOverflow func()
	lastSize   int64
	lastAt     time.Time
}

func startSpoolGuard(f *os.File, drain func()) *spoolGuard {
	g := &spoolGuard{f: f, drain: drain, lastAt: time.Now()}
	g.mu.Lock()
	g.t = time.AfterFunc(spoolCheckEvery, g.check)
	g.mu.Unlock()
	return g
}

// check measures the spool once and schedules the next.
func (g *spoolGuard) check() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.stopped {
		return
	}
	fi, err := g.f.Stat()
	if err != nil {
		return
	}
	size, now := fi.Size(), time.Now()
	backlog := size - g.read.Load()
	if backlog > MaxSpoolBacklog {
		// Called outside the guard's lock: it takes the log's.
		g.over.Store(backlog)
		if g.onOverflow != nil {
			go g.onOverflow()
		}
		return
	}
	if backlog > spoolDrainAt && g.draining.CompareAndSwap(false, true) {
		go func() {
			defer g.draining.Store(false)
			g.drain()
		}()
	}
	next := spoolCheckEvery
	if g.window.Load() {
		next = spoolCheckWindow
	}
	if grew, took := size-g.lastSize, now.Sub(g.lastAt); grew > 0 && took > 0 {
		// At the rate it grew, the next check comes when half the room
		// left is filled.
		room := float64(MaxSpoolBacklog-backlog) / 2
		next = min(next, max(spoolCheckMin, time.Duration(room/float64(grew)*float64(took))))
	}
	g.lastSize, g.lastAt = size, now
	g.t.Reset(next)
}

// setOverflow sets what is done when the guard trips: kill the engine.
func (g *spoolGuard) setOverflow(f func()) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.onOverflow = f
	if g.over.Load() > 0 {
		go f() // it tripped before it was told what to do
	}
}

func (g *spoolGuard) stop() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.stopped = true
	g.t.Stop()
}

// guardWindow tells the guard whether the measured window is open.
func (l *Log) guardWindow(in bool) {
	if g := l.guard.Load(); g != nil {
		g.window.Store(in)
	}
}

// OnSpoolOverflow sets what is done when the engine has written more than
// MaxSpoolBacklog the log has not read: the server kills the engine.
func (l *Log) OnSpoolOverflow(f func()) {
	if g := l.guard.Load(); g != nil {
		g.setOverflow(f)
	}
}

// SpoolOverflow is, once the guard tripped, why the engine was killed;
// empty until then. It takes no lock a copy holds.
func (l *Log) SpoolOverflow() string {
	if g := l.guard.Load(); g != nil {
		return g.overflowText()
	}
	return ""
}

func (g *spoolGuard) overflowText() string {
	over := g.over.Load()
	if over == 0 {
		return ""
	}
	return fmt.Sprintf("the engine wrote its output faster than decodebench could read it: %s unread, past the bound of %s (engine.MaxSpoolBacklog); the engine was killed", sizeText(over), sizeText(MaxSpoolBacklog))
}

// exitHow says how the exited engine ended, and why decodebench killed it
// when it did.
func (s *Server) exitHow() string {
	if why := s.Log.SpoolOverflow(); why != "" {
		return why + ": " + exitText(s.waitErr)
	}
	return exitText(s.waitErr)
}

// killFlooding kills an engine that wrote more output than the log could
// read (MaxSpoolBacklog), at once: waiting out a SIGTERM's grace would let
// it write more.
func (s *Server) killFlooding() {
	select {
	case <-s.done:
		return
	default:
	}
	s.kill()
	s.Log.Mark("%s", s.Log.SpoolOverflow())
}
