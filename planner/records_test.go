package planner_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/internal/committed"
	"github.com/decodebench/decodebench/planner"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/review"
	"github.com/decodebench/decodebench/scenarios"
)

func noEnv(string) (string, bool) { return "", false }

// demo is the shipped demo scenario, resolved without this machine's
// environment.
func demo(t *testing.T, set ...string) *scenarios.Scenario {
	t.Helper()
	s, _, err := scenarios.Load("llamacpp-speculative", scenarios.Options{LookupEnv: noEnv, Set: set})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// stored is the scenario a committed record stored beside it.
func stored(t *testing.T, name string) *scenarios.Scenario {
	t.Helper()
	path := filepath.Join("..", "docs", "benchmark_results", "data", name, "scenario.yaml")
	s, _, err := scenarios.Load(path, scenarios.Options{LookupEnv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// recordsIn finds host models in dir as the commands do, on a machine of
// hardware here.
func recordsIn(dir, here string) planner.Records {
	return planner.Records{Dir: dir, Here: func() string { return here }, List: review.LoadHistory, Load: recorder.Load}
}

// copyRecords copies committed records and their data folders into a new
// folder.
func copyRecords(t *testing.T, names ...string) string { return committed.Copy(t, names...) }

// The committed records of the demo's feature, newest first.
var specRecords = []string{"spec-draft-epyc-2026-12-02-2", "spec-draft-epyc-2026-12-02", "spec-draft-epyc-2026-11-29-4",
	"spec-draft-epyc-2026-11-29-3", "spec-draft-epyc-2026-11-29-2", "spec-draft-epyc-2026-11-29"}

func base(paths []string) []string {
	var out []string
	for _, p := range paths {
		out = append(out, strings.TrimSuffix(filepath.Base(p), ".md"))
	}
	return out
}

// TestRecordsHost: the host model goes by this hardware's records (the
// one the scenario names, else this machine's), the same scenario's
// first, then the feature's newest, at most MaxRecords; other hardware's
// only when none of this one's can be used, marked; a
// record that cannot be trusted or compared is passed over and named; with
// none, the guess.
func TestRecordsHost(t *testing.T) {
	// The newest record's own scenario, as stored beside it (the shipped
	// demo has changed since).
	spec := stored(t, specRecords[0])
	dir := copyRecords(t, append(specRecords, "identity-chaotic-h200-2026-12-02")...)
	h := recordsIn(dir, "epyc").Host(spec)
	if got, want := base(h.Records), specRecords[:planner.MaxRecords]; !slices.Equal(got, want) {
		t.Errorf("records %v, want %v", got, want)
	}
	if h.Basis != planner.BasisFeature || h.Same != 1 || h.Hardware != "epyc" || h.OtherHardware || !h.Split || len(h.Passed) != 0 {
		t.Errorf("host %+v", h)
	}
	// 15 + 5 + 3 × 6 rounds; the noise of a run in its round a few percent.
	if h.Rounds != 38 || !(planner.CV(h.RunVar(1, 256)) > 0.01 && planner.CV(h.RunVar(1, 256)) < 0.1) || h.Compared != 76 {
		t.Errorf("rounds %d, compared %d, CV %.4f", h.Rounds, h.Compared, planner.CV(h.RunVar(1, 256)))
	}
	if h.Costs.Record != filepath.Join(dir, specRecords[0]+".md") {
		t.Errorf("costs from %s, want the newest record's", h.Costs.Record)
	}

	// Of the same scenario alone: its records only.
	same := copyRecords(t, specRecords[0])
	if h := recordsIn(same, "epyc").Host(spec); h.Basis != planner.BasisScenario || h.Same != 1 || len(h.Records) != 1 {
		t.Errorf("the same scenario's record alone: %+v", h)
	}

	// Another machine: epyc's records, marked.
	if h := recordsIn(dir, "m5max").Host(spec); !h.OtherHardware || h.Hardware != "epyc" || h.Here != "m5max" || !h.Costs.OtherHardware {
		t.Errorf("on m5max: %+v", h)
	}
	// A scenario naming hardware of which no record can be used: other
	// hardware's, marked, as for this machine's (it took the guess over
	// the folder's records of its feature); naming epyc, epyc's on any
	// machine.
	if h := recordsIn(dir, "epyc").Host(demo(t, "hardware=h200")); !h.OtherHardware || h.Hardware != "epyc" || h.Here != "h200" || !h.Costs.OtherHardware || len(h.Records) != planner.MaxRecords {
		t.Errorf("hardware h200: %+v", h)
	}
	if h := recordsIn(dir, "m5max").Host(demo(t, "hardware=epyc")); h.OtherHardware || h.Hardware != "epyc" || h.Here != "epyc" {
		t.Errorf("hardware epyc on m5max: %+v", h)
	}

	// Records that cannot be trusted are passed over and named: runs
	// changed after the record was written, a stored scenario changed.
	f, err := os.OpenFile(filepath.Join(dir, "data", specRecords[0], "runs.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("{}\n")
	f.Close()
	if err := os.WriteFile(filepath.Join(dir, "data", specRecords[1], "scenario.yaml"), []byte("feature: x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h = recordsIn(dir, "epyc").Host(spec)
	if got, want := base(h.Records), specRecords[2:]; !slices.Equal(got, want) || h.Same != 0 || h.Basis != planner.BasisFeature {
		t.Errorf("records %v, want %v (%+v)", got, want, h)
	}
	if len(h.Passed) != 2 || !strings.Contains(h.Passed[0].Why, "changed after the record was written") || !strings.Contains(h.Passed[1].Why, "scenario.yaml") {
		t.Errorf("passed over: %+v", h.Passed)
	}

	// Another primary metric: every record passed over, the guess.
	ttft := demo(t, "metrics.primary=ttft_ms")
	if h := recordsIn(copyRecords(t, specRecords[2]), "epyc").Host(ttft); h.Basis != planner.BasisGuess || len(h.Passed) != 1 || !strings.Contains(h.Passed[0].Why, "primary metric is decode_tok_s") {
		t.Errorf("another primary metric: %+v", h)
	}
	if h := recordsIn(filepath.Join(t.TempDir(), "none"), "epyc").Host(spec); h.Basis != planner.BasisGuess {
		t.Errorf("no folder: %+v", h)
	}
}
