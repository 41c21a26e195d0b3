package engine

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

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
	// Lines are the window's engine lines, in order, each as the engine
	// wrote it but where the file stores it redacted; nil unless Whole.
	Lines []string
	// Redacted are the indexes in Lines of the lines the file stores
	// redacted: the window kept them as written, the file with each
	// secret replaced by redact.Mask.
	Redacted []int
	// Whole is set when the file shows the window's lines. Otherwise Why
	// says why not, and Cut whether that is because the log was cut (its
	// head and tail only), which a log of any size may not claim:
	// a window a file does not show, in a log that was not cut, is not
	// one a log wrote for a finished run.
	Whole bool
	Why   string
	Cut   bool
	// CutBytes are the bytes of engine output each of the file's cut
	// markers says was left out.
	CutBytes []int64
	// Began and Ended are the times the window's start and end markers
	// state (the host's wall clock); zero where a marker's is unreadable.
	Began, Ended time.Time
	// Markers are decodebench's marker lines of the whole file, in order
	// (the first maxStoredMarkers; MarkersLeft counts the others): what
	// the harness says it did, and when (logmarkers.go).
	Markers     []StoredMarker
	MarkersLeft int
}

// MeasuredWindow reads a run's log file (as Log writes it) to its end and
// returns the engine lines of its last measured window: a command engine
// that warmed up has one window a command run, and the last is the
// measured one. The window's lines reach the file in the order the
// window kept them, under the same lock, between its start and end
// markers (BeginWindow, EndWindow); an engine line the file escaped (one
// in a marker's form) is read back as written. The file cannot show them,
// and Whole is false, when:
//   - the file left engine output out (Cut: a log past LogHeadBytes +
//     LogTailBytes keeps its head and tail only, and a window marker from
//     the cut stretch is written after the cut, apart from its lines);
//   - the file has no complete window, or its last window does not end,
//     or a marker line is inside one
//     (decodebench writes none there), or a line inside one longer than
//     any line a log writes: none of them is a log a finished run wrote;
//   - a cut marker is not one a log writes (genuineCut): Why says so.
//
// Only the window being read is held: memory is bounded by the file.
func MeasuredWindow(r io.Reader) (StoredWindow, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var (
		cur, last    []string
		red, lastRed []int
		began, ended [2]time.Time // the current window's, the last's
		in, have, ok bool
		why, lastWhy string
		overlong     bool
		buf          []byte
		off          int64
		cuts         []cutMark
		markers      []StoredMarker
		markersLeft  int
	)
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A line longer than the reader's buffer: kept up to a bound
			// past which it cannot be a line the log wrote.
			if len(buf)+len(line) <= maxStoredLine {
				buf = append(buf, line...)
			} else {
				overlong = true
			}
			off += int64(len(line))
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return StoredWindow{}, err
		}
		start := off - int64(len(buf))
		off += int64(len(line))
		if len(buf) > 0 || overlong {
			line = append(buf, line...)
		}
		s := string(bytes.TrimSuffix(line, []byte("\n")))
		long := overlong || len(s) > maxStoredLine
		buf, overlong = buf[:0], false
		if len(line) > 0 {
			text, marker := markerText(s)
			if marker {
				keepMarker(&markers, &markersLeft, s, text)
			}
			switch {
			case marker && text == markWindowStart:
				in, ok, why, cur, red = true, true, "", nil, nil
				began[0] = markerTime(s)
			case marker && text == markWindowEnd && in:
				in, have, last, lastRed, lastWhy = false, true, cur, red, why
				cur, red = nil, nil
				began[1], ended[1] = began[0], markerTime(s)
			case marker && strings.HasPrefix(text, markCut):
				when, _, _ := strings.Cut(strings.TrimPrefix(s, MarkerPrefix), " ")
				cuts = append(cuts, cutMark{at: start, end: off, text: text, when: when})
			case !in:
			case marker:
				ok, why, cur, red = false, "a marker line inside the measured window, where decodebench writes none", nil, nil
			case long:
				ok, why, cur, red = false, "a line of the window longer than any line a log writes", nil, nil
			case ok:
				if strings.Contains(s, redact.Mask) {
					red = append(red, len(cur))
				}
				// The window kept the engine's line as written, which
				// the file escaped.
				cur = append(cur, unescape(s))
			}
		}
		if err != nil {
			break
		}
	}
	w := StoredWindow{Markers: markers, MarkersLeft: markersLeft}
	for _, m := range cuts {
		n, real := genuineCut(m, off)
		if !real {
			return StoredWindow{Why: "a cut marker that no log writes: its text, or the log's size around it, is not a cut log's",
				Markers: w.Markers, MarkersLeft: w.MarkersLeft}, nil
		}
		w.CutBytes, w.Cut = append(w.CutBytes, n), true
	}
	switch {
	case w.Cut:
		w.Why = "the log was cut (head and tail only)"
	case !have:
		w.Why = "the log has no complete measured window"
	case in:
		w.Why = "the log's last measured window does not end"
	case lastWhy != "":
		w.Why = lastWhy
	default:
		w.Lines, w.Redacted, w.Whole = last, lastRed, true
		w.Began, w.Ended = began[1], ended[1]
	}
	return w, nil
}

// maxStoredLine bounds a line of a log file: an engine line of at most
// MaxLogLine, escaped, or a secret in it masked, or a marker line.
const maxStoredLine = MaxLogLine + len(MarkerPrefix) + 256

// unescape is an engine line as written, from the file's line s.
func unescape(s string) string {
	if strings.HasPrefix(s, escapedMarker) {
		return s[1:]
	}
	return s
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

// markerTime is the time a marker line states; zero where it states none
// that reads.
func markerTime(s string) time.Time {
	rest, _ := strings.CutPrefix(s, MarkerPrefix)
	when, _, _ := strings.Cut(rest, " ")
	t, err := time.Parse(time.RFC3339Nano, when)
	if err != nil {
		return time.Time{}
	}
	return t
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
