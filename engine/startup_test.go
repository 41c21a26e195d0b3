package engine

import (
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// The lines an engine writes through its spool until it is ready are
// kept for startup counters, a last line without its newline included;
// the warmups' and the window's are not; a startup counter reads them,
// a window counter never does.
func TestStartupLinesAreKeptUntilReady(t *testing.T) {
	l, err := NewLog(filepath.Join(t.TempDir(), "run.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	l.KeepStartup()
	spool, err := l.Spool()
	if err != nil {
		t.Fatal(err)
	}
	spool.WriteString("load_model: loading\ninit: llama threadpool init, n_threads = 1\nlistening")
	l.EndStartup()
	spool.WriteString(" on port 1\nwarmup: n_threads = 7\n")
	time.Sleep(2 * followEvery)
	l.BeginWindow()
	spool.WriteString("slot: n_threads = 9\n")
	window := l.EndWindow(0, time.Second)
	want := []string{"load_model: loading", "init: llama threadpool init, n_threads = 1", "listening"}
	if got := l.Startup(); len(got) != len(want) || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("startup lines %q, want %q", got, want)
	}
	obs := Observation{Startup: l.Startup(), Window: window}
	for phase, v := range map[schema.LogPhase]float64{schema.PhaseStartup: 1, schema.PhaseWindow: 9} {
		k, err := NewCounter(scenarios.CounterPolicy{Name: "threads", Kind: schema.SourceLog, Expr: `n_threads = (\d+)`, Phase: phase})
		if err != nil {
			t.Fatal(err)
		}
		rd, err := k.Read(obs)
		if err != nil || rd.Value != v || rd.Absent {
			t.Errorf("%s counter: %+v %v, want %v", phase, rd, err, v)
		}
		if k.NeedsStartup() != (phase == schema.PhaseStartup) {
			t.Errorf("%s counter needs the start-up: %v", phase, k.NeedsStartup())
		}
		if ok, _ := regexp.MatchString(`matching log lines in (the engine's start-up|the measured window)`, rd.Note); !ok {
			t.Errorf("note %q", rd.Note)
		}
	}
}
