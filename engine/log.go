package engine

import (
	"bytes"
	"fmt"
	"os"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// Log captures an engine's stdout and stderr into a file, line by line, and
// keeps in memory the lines written inside the measured window, which is
// what log counters read. Marker lines written by decodebench itself show in
// the file where the window starts and ends.
type Log struct {
	mu       sync.Mutex
	f        *os.File
	redact   func(string) string // masks secrets in what reaches the file and the tail
	partial  []byte
	inWindow bool
	window   []string
	tail     []string // last tailSize lines, for error messages
	last     time.Time
	// spool is where the engine writes (spool.go), read from spoolOff;
	// follow copies it into the file outside the measured window.
	spool    *os.File
	spoolOff int64
	spoolBuf []byte
	follow   *time.Timer
}

const tailSize = 30

// MarkerPrefix starts every line decodebench writes into an engine log.
const MarkerPrefix = "#### decodebench: "

// NewLog creates the log file at path.
func NewLog(path string) (*Log, error) { return openLog(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC) }

// openLog opens the log file with the given flags, never through a
// symbolic link: the log lives in a data folder that may have been copied
// from elsewhere.
func openLog(path string, flags int) (*Log, error) {
	f, err := os.OpenFile(path, flags|unix.O_NOFOLLOW, 0o644)
	if err != nil {
		return nil, fmt.Errorf("engine log: %w", err)
	}
	return &Log{f: f, last: time.Now()}, nil
}

// red masks secrets in a line bound for the file or an error message.
func (l *Log) red(s string) string {
	if l.redact == nil {
		return s
	}
	return l.redact(s)
}

// Write takes engine output; it is safe for concurrent use.
func (l *Log) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.writeLocked(p)
}

func (l *Log) writeLocked(p []byte) (int, error) {
	l.last = time.Now()
	data := append(l.partial, p...)
	for {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break
		}
		l.addLine(string(bytes.TrimRight(data[:i], "\r")))
		data = data[i+1:]
	}
	l.partial = append(l.partial[:0], data...)
	return len(p), nil
}

// addLine takes one complete engine line: the window keeps it as written,
// for the counters; the file and the tail get it redacted.
func (l *Log) addLine(s string) {
	if l.inWindow {
		l.window = append(l.window, s)
	}
	s = l.red(s)
	if l.f != nil {
		l.f.WriteString(s + "\n")
	}
	l.tail = append(l.tail, s)
	if len(l.tail) > tailSize {
		l.tail = l.tail[len(l.tail)-tailSize:]
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
	if len(l.partial) > 0 {
		l.addLine(string(l.partial))
		l.partial = l.partial[:0]
	}
	fmt.Fprintf(l.f, "%s%s %s\n", MarkerPrefix, time.Now().UTC().Format(time.RFC3339Nano), l.red(fmt.Sprintf(format, args...)))
}

// BeginWindow marks the start of the measured window.
func (l *Log) BeginWindow() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.markLocked("measured window start")
	l.inWindow = true
	l.window = nil
	if l.follow != nil {
		l.follow.Stop()
	}
}

// EndWindow waits until the engine has been quiet for quiet (or max has
// passed), so that lines the engine writes about the measured request are
// not lost in the pipe, then marks the end of the window and returns its
// lines.
func (l *Log) EndWindow(quiet, max time.Duration) []string {
	deadline := time.Now().Add(max)
	for time.Now().Before(deadline) {
		l.mu.Lock()
		l.drainLocked()
		idle := time.Since(l.last)
		l.mu.Unlock()
		if idle >= quiet {
			break
		}
		time.Sleep(quiet / 4)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.markLocked("measured window end")
	l.inWindow = false
	w := l.window
	l.window = nil
	if l.follow != nil && l.spool != nil {
		l.follow.Reset(followEvery)
	}
	return w
}

// Tail returns the last lines the engine wrote.
func (l *Log) Tail() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.drainLocked()
	out := append([]string(nil), l.tail...)
	if len(l.partial) > 0 {
		out = append(out, l.red(string(l.partial)))
	}
	return out
}

// Close flushes and closes the file.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closeSpoolLocked()
	if l.f == nil {
		return nil
	}
	if len(l.partial) > 0 {
		l.f.WriteString(l.red(string(l.partial)) + "\n")
		l.partial = l.partial[:0]
	}
	err := l.f.Close()
	l.f = nil
	return err
}
