package engine

import (
	"strings"
	"time"
)

// StoredMarker is one of decodebench's marker lines as a run's log file
// holds it: when the harness wrote it (the line's time, on the wall
// clock) and what it says (its text after the time). A launch marker
// names the command line the harness started, as it started it
// (server.go: "start: ", command.go: the run's label and ": "), its
// secrets masked as the rest of the file's.
type StoredMarker struct {
	// When is zero where the line's time does not read as RFC 3339.
	When time.Time
	Text string
}

// maxStoredMarkers bounds the marker lines MeasuredWindow keeps of one
// file: a run's log holds a few a start (start, ready, warmups, window,
// stop), a command engine's a few a warmup; a file cut to its head and
// tail keeps at most maxCutMarkers of its cut stretch's.
const maxStoredMarkers = 4096

// keepMarker adds the marker line s, whose text is text, to kept, or
// counts it in left past maxStoredMarkers.
func keepMarker(kept *[]StoredMarker, left *int, s, text string) {
	if len(*kept) >= maxStoredMarkers {
		*left++
		return
	}
	when, _, _ := strings.Cut(strings.TrimPrefix(s, MarkerPrefix), " ")
	t, err := time.Parse(time.RFC3339Nano, when)
	if err != nil {
		t = time.Time{}
	}
	*kept = append(*kept, StoredMarker{When: t, Text: text})
}
