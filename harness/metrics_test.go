package harness

import (
	"path/filepath"
	"regexp"
	"testing"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// Key=value diagnostic lines in the form the seed project's server writes
// them (the brief, §3): counters and metrics read only the measured
// window, so the start-up warm-up line with rounds=0 is never evidence,
// and a decline line is found.
func TestDiagnosticLinesInTheWindow(t *testing.T) {
	log, err := engine.NewLog(filepath.Join(t.TempDir(), "e.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	log.Write([]byte("INFO DFlash diagnostics block_size=4 rounds=0 proposed_tokens=0 accepted_tokens=0\n"))
	log.BeginWindow()
	log.Write([]byte("INFO DFlash diagnostics block_size=4 rounds=79 proposed_tokens=316 accepted_tokens=152\n"))
	log.Write([]byte("INFO MTP round-loop diagnostics rounds=12 accepted=30\n"))
	log.Write([]byte("WARN MTP declined: verify batch too large, falling back to classic\n"))
	window := log.EndWindow(0, 0)

	rounds, err := engine.NewCounter(scenarios.CounterPolicy{Name: "rounds", Kind: schema.SourceLog, Expr: `DFlash diagnostics .*\brounds=(\d+)`})
	if err != nil {
		t.Fatal(err)
	}
	rd, err := rounds.Read(engine.Observation{Window: window})
	if err != nil || rd.Value != 79 || rd.Absent {
		t.Errorf("rounds in the window = %+v, %v; want 79 (the start-up rounds=0 line is outside it)", rd, err)
	}
	accepted := regexp.MustCompile(`\baccepted(?:_tokens)?=(\d+)`)
	for how, want := range map[string]float64{"last": 30, "sum": 182, "mean": 91} {
		if v, ok := aggregate(accepted, window, how); !ok || v != want {
			t.Errorf("%s of accepted = %v, %v; want %v", how, v, ok, want)
		}
	}
	d := declines(regexp.MustCompile(`declined|falling back to classic`), window)
	if len(d) != 1 || d[0] != "WARN MTP declined: verify batch too large, falling back to classic" {
		t.Errorf("declines %q", d)
	}
	if declines(nil, window) != nil {
		t.Error("no pattern, yet declines")
	}
}
