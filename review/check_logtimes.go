package review

import (
	"fmt"
	"time"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/schema"
)

// logTimeProblem holds a finished run's start and length to the times of
// its log's marker lines: the harness writes them while the run lasts
// (its launch a few milliseconds after the run's start, its stop a moment
// before its end), so each lies within [start, start + seconds], give or
// take logTimeSlack. runs.jsonl and the logs are hashed apart, and a run's
// start was its word alone: a record copied with every time in runs.jsonl
// and its data block shifted a day (its logs byte for byte the original's)
// passed check, and history counted one campaign twice. A marker whose
// time does not read is named too; nothing is said of a run without a
// start.
func logTimeProblem(r schema.Run, w engine.StoredWindow) string {
	if r.Start.IsZero() {
		return ""
	}
	from := r.Start.Add(-logTimeSlack)
	to := r.Start.Add(time.Duration(r.Seconds*float64(time.Second)) + logTimeSlack)
	for _, m := range w.Markers {
		switch {
		case m.When.IsZero():
			return fmt.Sprintf("its log %s has a marker line whose time does not read (%s), where the harness writes each with its time", termsafe.String(r.Log), quoteLine(m.Text))
		case m.When.Before(from) || m.When.After(to):
			return fmt.Sprintf("its log %s has a marker line of %s (%s), outside the run's %s to %s (start and seconds in runs.jsonl): the run's times are not its log's",
				termsafe.String(r.Log), m.When.UTC().Format(time.RFC3339Nano), quoteLine(m.Text), r.Start.UTC().Format(time.RFC3339Nano), to.Add(-logTimeSlack).UTC().Format(time.RFC3339Nano))
		}
	}
	return ""
}

// logTimeSlack is how far outside its run a log's marker may lie: the
// run's start and seconds are read on one clock (wall, then monotonic)
// and the markers on the wall clock, which a time service may step
// meanwhile. The committed records' markers lie within 30 ms of the
// run's start and end.
const logTimeSlack = 2 * time.Second
