package review

import (
	"bytes"
	"strings"

	"github.com/decodebench/decodebench/engine"
)

// logMarks collects, as a run's log is read (an io.Writer beside the
// window's reader), the texts of decodebench's marker lines, in order:
// what the log says the harness did around the engine (its start, the
// warmups, the measured window, the stop). An engine line in a marker's
// form is escaped in the file (engine's escapeMarker), so every marker
// line is decodebench's. Only a line that may be a marker is held while
// it is read, and at most maxLogMarks markers are kept (Over then set):
// a log writes a few per engine start.
type logMarks struct {
	Texts []string
	Over  bool
	line  []byte
	skip  bool // the line being read is no marker
}

// maxLogMarks bounds the markers kept of one log.
const maxLogMarks = 4096

func (m *logMarks) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		part := p
		if i >= 0 {
			part = p[:i]
		}
		if !m.skip {
			m.line = append(m.line, part...)
			k := min(len(m.line), len(engine.MarkerPrefix))
			m.skip = string(m.line[:k]) != engine.MarkerPrefix[:k] || len(m.line) > maxStoredLog
		}
		if i < 0 {
			break
		}
		if !m.skip {
			m.keep(string(m.line))
		}
		m.line, m.skip, p = m.line[:0], false, p[i+1:]
	}
	return n, nil
}

// end keeps a last marker line that no newline ended.
func (m *logMarks) end() {
	if !m.skip && len(m.line) > 0 {
		m.keep(string(m.line))
	}
	m.line, m.skip = m.line[:0], false
}

// keep adds a whole marker line's text (after its prefix and time).
func (m *logMarks) keep(line string) {
	rest, ok := strings.CutPrefix(line, engine.MarkerPrefix)
	if !ok {
		return
	}
	if len(m.Texts) == maxLogMarks {
		m.Over = true
		return
	}
	_, text, _ := strings.Cut(rest, " ")
	m.Texts = append(m.Texts, text)
}

// last is the index of the last marker whose text is text, -1 if none.
func (m *logMarks) last(text string) int {
	for i := len(m.Texts) - 1; i >= 0; i-- {
		if m.Texts[i] == text {
			return i
		}
	}
	return -1
}

// Window marker texts (engine's markWindowStart, markWindowEnd).
const (
	markWindowStart = "measured window start"
	markWindowEnd   = "measured window end"
)
