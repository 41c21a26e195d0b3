package engine

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/decodebench/decodebench/internal/safefs"
)

// Log captures an engine's stdout and stderr into a file, line by line, and
// keeps in memory the lines written inside the measured window, which is
// what log counters read. Marker lines written by decodebench itself show in
// the file where the window starts and ends.
//
// Everything it keeps is bounded, whatever the engine writes: the file
// holds the first LogHeadBytes and the last LogTailBytes of a run's log,
// with a marker saying what was cut between them (decodebench's own marker
// lines are never cut); the window keeps MaxWindowBytes of lines; a line
// longer than MaxLogLine is split. A write to the file that fails (a full
// disk) makes Close fail: a log that could not be written whole is not
// the log of an OK run.
type Log struct {
	mu      sync.Mutex
	f       *os.File
	redact  func(string) string // masks secrets in what reaches the file and the tail
	partial []byte
	// outPartial is standard output's unfinished line where a command's
	// two streams reach the log apart (Stdout): a line of one is never
	// cut by a write of the other.
	outPartial []byte
	inWindow   bool
	window     []string
	// windowKept is the size of window; windowBytes what the engine wrote
	// during the window; windowCut the lines not kept past MaxWindowBytes.
	windowKept, windowBytes int64
	windowCut               int
	lastWindow              WindowOutput
	// startup keeps, while inStartup, the lines the engine writes from
	// its launch until it is ready (startup.go), for startup counters.
	startup     []string
	inStartup   bool
	startupKept int64
	startupCut  int
	tail        []string // last tailSize lines, unredacted, for error messages
	last        time.Time
	// written is the size of the file's head; once it would pass
	// LogHeadBytes the log keeps its tail in ring (at most LogTailBytes)
	// and counts what falls out of it in cutBytes and cutLines, keeping
	// decodebench's markers that fall out in cutMarkers.
	written            int64
	cutting            bool
	ring               []logLine
	ringBytes          int64
	cutBytes, cutLines int64
	cutMarkers         []string
	// err is the first write to the file that failed.
	err error
	// spoolState is the engine's output, not yet read (spool.go).
	spoolState
}

// logLine is a line held for the end of the file: an engine line as
// written (redacted when it is written), or a marker.
type logLine struct {
	s      string
	marker bool
}

// Bounds on an engine's log (see docs/reference/bounds-and-security.md).
const (
	// LogHeadBytes and LogTailBytes are how much of a run's log the file
	// keeps from its start and its end.
	LogHeadBytes = 4 << 20
	LogTailBytes = 4 << 20
	// MaxLogLine is the longest line kept whole; a longer one is split.
	MaxLogLine = 1 << 20
	// MaxWindowBytes bounds the window's lines kept for counters.
	MaxWindowBytes = 16 << 20
	// FloodBytes: more engine output than this inside the measured window
	// is a flood, a contention warning for that run.
	FloodBytes = 1 << 20
	// maxCutMarkers bounds the marker lines kept from a cut stretch.
	maxCutMarkers = 64
	// tailLineBytes bounds each line of an error's log tail.
	tailLineBytes = 512
)

const tailSize = 30

// WindowOutput is what the engine wrote during the last measured window.
type WindowOutput struct {
	// Bytes is everything it wrote, lines kept or not.
	Bytes int64
	// LinesCut counts the lines not kept for counters (past
	// MaxWindowBytes).
	LinesCut int
}

// Flood reports whether the window's output was a flood.
func (w WindowOutput) Flood() bool { return w.Bytes > FloodBytes }

// MarkerPrefix starts every line decodebench writes into an engine log.
const MarkerPrefix = "#### decodebench: "

// escapedMarker starts an engine line that began with MarkerPrefix, as the
// log file holds it: a marker in the file is always decodebench's, so the
// file's windows read back as they were (MeasuredWindow).
const escapedMarker = `\` + MarkerPrefix

// escapeMarker is an engine line as the log file holds it.
func escapeMarker(s string) string {
	if strings.HasPrefix(s, MarkerPrefix) {
		return `\` + s
	}
	return s
}

// NewLog creates the log file at path.
func NewLog(path string) (*Log, error) { return openLog(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC) }

// openLog opens the log file with the given flags through safefs.OpenFile:
// never through a symbolic link, never blocking on a FIFO, only a regular
// file (the log lives in a data folder that may have been copied from
// elsewhere). A log opened to append counts what the file holds towards
// its head.
func openLog(path string, flags int) (*Log, error) {
	f, err := safefs.OpenFile(path, flags, 0o644)
	if err != nil {
		return nil, fmt.Errorf("engine log: %w", err)
	}
	l := &Log{f: f, last: time.Now()}
	if flags&os.O_APPEND != 0 {
		if fi, err := f.Stat(); err == nil {
			l.written = fi.Size()
		}
	}
	return l, nil
}

// red masks secrets in a line bound for the file or an error message.
func (l *Log) red(s string) string {
	if l.redact == nil {
		return s
	}
	return l.redact(s)
}

// addLine takes one complete engine line: the window keeps it as written,
// for the counters; the file gets it redacted.
func (l *Log) addLine(s string) {
	if l.inStartup {
		l.keepStartup(s)
	}
	if l.inWindow {
		if l.windowKept+int64(len(s)) <= MaxWindowBytes {
			l.window = append(l.window, s)
			l.windowKept += int64(len(s))
		} else {
			l.windowCut++
		}
	}
	l.fileLine(logLine{s: s})
	l.tail = append(l.tail, s)
	if len(l.tail) > 2*tailSize {
		l.tail = append(l.tail[:0], l.tail[len(l.tail)-tailSize:]...)
	}
}

// fileLine sends a line to the file: into its head while there is room,
// else into the ring of its tail.
func (l *Log) fileLine(ln logLine) {
	if l.f == nil {
		return
	}
	if !l.cutting {
		s := ln.s
		if !ln.marker {
			s = escapeMarker(l.red(s))
		}
		if l.written+int64(len(s))+1 <= LogHeadBytes {
			l.writeFile(s + "\n")
			l.written += int64(len(s)) + 1
			return
		}
		l.cutting = true
	}
	l.ring = append(l.ring, ln)
	l.ringBytes += int64(len(ln.s)) + 1
	drop := 0
	for l.ringBytes > LogTailBytes && drop < len(l.ring)-1 {
		out := l.ring[drop]
		drop++
		l.ringBytes -= int64(len(out.s)) + 1
		if out.marker {
			if len(l.cutMarkers) < maxCutMarkers {
				l.cutMarkers = append(l.cutMarkers, out.s)
			}
			continue
		}
		l.cutBytes += int64(len(out.s)) + 1
		l.cutLines++
	}
	if drop > 0 {
		// Reuse the ring's storage once its front has moved far enough.
		l.ring = l.ring[drop:]
		if cap(l.ring) > 4*len(l.ring)+1024 {
			l.ring = append([]logLine(nil), l.ring...)
		}
	}
}

// writeFile writes to the file, remembering the first failure.
func (l *Log) writeFile(s string) {
	if l.err != nil {
		return
	}
	if l.out = append(l.out, s...); len(l.out) >= 64<<10 {
		l.flushLocked()
	}
}

// Mark writes a decodebench marker line into the log file.
func (l *Log) Mark(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.markLocked(format, args...)
}

func (l *Log) markLocked(format string, args ...any) {
	if l.f == nil {
		return
	}
	l.drainLocked()
	// A partial engine line is finished first so the marker stands alone.
	l.finishPartials()
	l.fileLine(logLine{s: fmt.Sprintf("%s%s %s", MarkerPrefix, time.Now().UTC().Format(time.RFC3339Nano), l.red(fmt.Sprintf(format, args...))), marker: true})
	l.flushLocked()
}

// BeginWindow marks the start of the measured window.
func (l *Log) BeginWindow() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.markLocked(markWindowStart)
	l.inWindow = true
	l.guardWindow(true)
	l.window, l.windowKept, l.windowBytes, l.windowCut = nil, 0, 0, 0
	if l.follow != nil {
		l.follow.Stop()
	}
}

// Settle waits until the engine has been quiet for quiet (or max has
// passed): before a window begins, so that what the engine writes late
// about a warmup request (a line after its reply) is not read as the
// measured request's.
func (l *Log) Settle(quiet, max time.Duration) {
	deadline := time.Now().Add(max)
	for time.Now().Before(deadline) {
		l.mu.Lock()
		l.drainLocked()
		idle := time.Since(l.last)
		l.mu.Unlock()
		if idle >= quiet {
			return
		}
		time.Sleep(quiet / 4)
	}
}

// EndWindow waits until the engine has been quiet for quiet (or max has
// passed), so that lines the engine writes about the measured request are
// not lost in the pipe, then marks the end of the window and returns its
// lines.
func (l *Log) EndWindow(quiet, max time.Duration) []string {
	l.Settle(quiet, max)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.markLocked(markWindowEnd)
	l.inWindow = false
	l.guardWindow(false)
	l.lastWindow = WindowOutput{Bytes: l.windowBytes, LinesCut: l.windowCut}
	if l.windowCut > 0 {
		l.markLocked("the window's lines past %s (%d lines) were not kept for counters", sizeText(MaxWindowBytes), l.windowCut)
	}
	if l.lastWindow.Flood() {
		l.markLocked("the engine wrote %s to its output during the measured window (a flood: more than %s)", sizeText(l.windowBytes), sizeText(FloodBytes))
	}
	w := l.window
	l.window = nil
	if l.follow != nil && l.spool != nil {
		l.follow.Reset(followEvery)
	}
	return w
}

// Window is what the engine wrote during the last measured window.
func (l *Log) Window() WindowOutput {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lastWindow
}

// Cut is how many bytes of engine output the file left out, so far.
func (l *Log) Cut() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.cutBytes
}

// Close writes what the log holds of its tail, with a marker saying what
// was cut before it, and closes the file. It fails when any write to the
// file failed: the log is incomplete.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closeSpoolLocked()
	if l.f == nil {
		return nil
	}
	l.finishPartials()
	if l.cutting {
		if l.cutBytes > 0 || len(l.cutMarkers) > 0 {
			l.writeFile(MarkerPrefix + time.Now().UTC().Format(time.RFC3339Nano) + " " + cutMarkText(l.cutBytes, l.cutLines) + "\n")
		}
		for _, m := range l.cutMarkers {
			l.writeFile(m + "\n")
		}
		for _, ln := range l.ring {
			if ln.marker {
				l.writeFile(ln.s + "\n")
			} else {
				l.writeFile(escapeMarker(l.red(ln.s)) + "\n")
			}
		}
		l.ring, l.cutMarkers = nil, nil
	}
	l.flushLocked()
	err := l.f.Close()
	l.f = nil
	if l.overflow != "" {
		return errors.New(l.overflow)
	}
	if l.err != nil {
		return fmt.Errorf("engine log incomplete: %w", l.err)
	}
	return err
}
