package engine

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/decodebench/decodebench/redact"
)

// The texts of the marker lines that tell, in a run's log file, where the
// measured window is and where the file left engine output out. The log
// writes them (log.go) and MeasuredWindow reads them back.
const (
	markWindowStart = "measured window start"
	markWindowEnd   = "measured window end"
	markCut         = "engine output cut:"
)

// StoredWindow is the measured window's engine lines as a run's log file
// holds them.
type StoredWindow struct {
	// Lines are the window's engine lines, in order; nil unless Whole.
	Lines []string
	// Whole is set when the file shows every line the window kept for
	// the counters, as the engine wrote it (Observation.Window); Why says
	// why it does not, when it does not.
	Whole bool
	Why   string
}

// MeasuredWindow reads a run's log file (as Log writes it) to its end and
// returns the engine lines of its last measured window: a command engine
// that warmed up has one window a command run, and the last is the
// measured one. The window's lines reach the file in the order the
// window kept them, under the same lock, between its start and end
// markers (BeginWindow, EndWindow). The file cannot show them whole, and
// Whole is false, when:
//   - the file has no complete window (the run failed inside it);
//   - the file left engine output out (a log past LogHeadBytes +
//     LogTailBytes keeps its head and tail only, and a window marker from
//     the cut stretch is written after the cut, apart from its lines);
//   - a line inside the window is a marker (decodebench writes none
//     there, and an engine line written in a marker's form cannot be told
//     from one), holds redact.Mask (the file has the line redacted, the
//     window kept it as written) or is longer than MaxLogLine.
//
// Only the window being read is held: memory is bounded by the file.
func MeasuredWindow(r io.Reader) (StoredWindow, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var (
		cur, last     []string
		in, have, ok  bool
		why, lastWhy  string
		cut, overlong bool
		buf           []byte
	)
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A line longer than the reader's buffer: kept up to a bound
			// past which it cannot be a line the window kept.
			if len(buf)+len(line) <= MaxLogLine+len(MarkerPrefix)+256 {
				buf = append(buf, line...)
			} else {
				overlong = true
			}
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return StoredWindow{}, err
		}
		if len(buf) > 0 || overlong {
			line = append(buf, line...)
		}
		s := string(bytes.TrimSuffix(line, []byte("\n")))
		long := overlong || len(s) > MaxLogLine
		buf, overlong = buf[:0], false
		if len(line) > 0 {
			switch text, marker := markerText(s); {
			case marker && text == markWindowStart:
				in, ok, why, cur = true, true, "", nil
			case marker && text == markWindowEnd && in:
				in, have, last, lastWhy = false, true, cur, why
				if !ok && lastWhy == "" {
					lastWhy = "the window's lines are not all in the file"
				}
				cur = nil
			case marker && strings.HasPrefix(text, markCut):
				cut = true
			case !in:
			case marker:
				ok, why, cur = false, "a marker line inside the measured window", nil
			case long:
				ok, why, cur = false, "a line of the window is longer than the longest line kept whole", nil
			case strings.HasPrefix(s, escapedMarker):
				// The window kept the engine's line as written, which
				// the file escaped.
				ok, why, cur = false, "an engine line of the window was written in a marker's form", nil
			case strings.Contains(s, redact.Mask):
				ok, why, cur = false, "a line of the window is stored redacted", nil
			case ok:
				cur = append(cur, s)
			}
		}
		if err != nil {
			break
		}
	}
	switch {
	case cut:
		return StoredWindow{Why: "the log was cut (head and tail only)"}, nil
	case !have:
		return StoredWindow{Why: "the log has no complete measured window"}, nil
	case lastWhy != "":
		return StoredWindow{Why: lastWhy}, nil
	}
	return StoredWindow{Lines: last, Whole: true}, nil
}

// markerText is the text of a decodebench marker line (after its prefix
// and time), and whether s is one.
func markerText(s string) (string, bool) {
	rest, ok := strings.CutPrefix(s, MarkerPrefix)
	if !ok {
		return "", false
	}
	_, text, _ := strings.Cut(rest, " ")
	return text, true
}

// LastNumber returns the capture of the last line the pattern matches, as
// a command engine's metrics and token count are read from its lines.
func LastNumber(re *regexp.Regexp, lines []string) (float64, bool) {
	for i := len(lines) - 1; i >= 0; i-- {
		if m := re.FindStringSubmatch(lines[i]); m != nil {
			v, err := strconv.ParseFloat(strings.TrimSpace(m[1]), 64)
			if err == nil {
				return v, true
			}
		}
	}
	return 0, false
}

// Aggregate is the last (default), mean or sum of a pattern's captures
// over the window's lines, decodebench's own marker lines excepted, as a
// scenario's log metric is read.
func Aggregate(re *regexp.Regexp, lines []string, how string) (float64, bool) {
	var vals []float64
	for _, l := range lines {
		if strings.HasPrefix(l, MarkerPrefix) {
			continue
		}
		for _, m := range re.FindAllStringSubmatch(l, -1) {
			if v, err := strconv.ParseFloat(m[1], 64); err == nil {
				vals = append(vals, v)
			}
		}
	}
	if len(vals) == 0 {
		return 0, false
	}
	sum := 0.0
	for _, v := range vals {
		sum += v
	}
	switch how {
	case "sum":
		return sum, true
	case "mean":
		return sum / float64(len(vals)), true
	}
	return vals[len(vals)-1], true
}
