package review

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/decodebench/decodebench/scenarios"
)

// copyRecords copies committed records (docs/benchmark_results) and their
// data folders into a new folder.
func copyRecords(t *testing.T, names ...string) string {
	t.Helper()
	src, dst := filepath.Join("..", "docs", "benchmark_results"), t.TempDir()
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(src, n+".md"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, n+".md"), b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.CopyFS(filepath.Join(dst, "data", n), os.DirFS(filepath.Join(src, "data", n))); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// TestEstimateCosts: the estimate goes by the newest record of the
// feature with a noise anatomy or runs with wall times, read through the
// guarded reader: a newer record that is a link, or whose runs changed
// after it was written, is passed over; a record of another feature, of
// hardware other than the one the scenario names, or none, leaves the
// guess.
func TestEstimateCosts(t *testing.T) {
	demo, _, err := scenarios.Load("llamacpp-speculative", scenarios.Options{LookupEnv: func(string) (string, bool) { return "", false }})
	if err != nil {
		t.Fatal(err)
	}
	const anatomy, runs4, runs3 = "spec-draft-epyc-2026-12-02", "spec-draft-epyc-2026-11-29-4", "spec-draft-epyc-2026-11-29-3"

	dir := copyRecords(t, runs3, anatomy, runs4, "identity-chaotic-h200-2026-12-02")
	if c := EstimateCosts(dir, demo, "epyc"); c.Basis != scenarios.CostAnatomy || c.Record != filepath.Join(dir, anatomy+".md") {
		t.Errorf("newest with an anatomy: %+v", c)
	}

	dir = copyRecords(t, runs3, runs4)
	c := EstimateCosts(dir, demo, "epyc")
	if c.Basis != scenarios.CostRuns || c.Record != filepath.Join(dir, runs4+".md") {
		t.Errorf("newest, by its runs: %+v", c)
	}
	// A newer record that is a link to another is not read.
	if err := os.Symlink(filepath.Join(copyRecords(t, anatomy), anatomy+".md"), filepath.Join(dir, "spec-draft-epyc-2026-12-09.md")); err != nil {
		t.Fatal(err)
	}
	if got := EstimateCosts(dir, demo, "epyc"); got != c {
		t.Errorf("with a linked newer record: %+v, want %+v", got, c)
	}
	// Runs changed after the record was written: passed over for the next.
	f, err := os.OpenFile(filepath.Join(dir, "data", runs4, "runs.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("{}\n")
	f.Close()
	if c := EstimateCosts(dir, demo, "epyc"); c.Basis != scenarios.CostRuns || c.Record != filepath.Join(dir, runs3+".md") {
		t.Errorf("with runs changed after: %+v", c)
	}

	h200 := *demo
	h200.Hardware = "h200"
	for name, tc := range map[string]struct {
		dir string
		s   *scenarios.Scenario
	}{
		"other feature":  {copyRecords(t, "identity-chaotic-h200-2026-12-02"), demo},
		"other hardware": {copyRecords(t, anatomy), &h200},
		"no folder":      {filepath.Join(t.TempDir(), "none"), demo},
	} {
		if c := EstimateCosts(tc.dir, tc.s, "epyc"); c != tc.s.GuessCosts() {
			t.Errorf("%s: %+v, want the guess", name, c)
		}
	}
}

// TestEstimateCostsPrefersThisHardware: for a scenario of hardware "auto"
// the estimate goes by a record of the hardware the campaign would record,
// even when a record of other hardware is newer, and takes other hardware's
// newest only when none of this one's can be used, marked as such.
func TestEstimateCostsPrefersThisHardware(t *testing.T) {
	chaotic, _, err := scenarios.Load("llamacpp-identity-chaotic", scenarios.Options{LookupEnv: func(string) (string, bool) { return "", false }})
	if err != nil {
		t.Fatal(err)
	}
	if chaotic.Hardware != "auto" {
		t.Fatalf("the shipped scenario's hardware is %q, this test needs auto", chaotic.Hardware)
	}
	const epyc, h200 = "identity-chaotic-epyc-2026-11-29", "identity-chaotic-h200-2026-12-02" // h200's is newer
	dir := copyRecords(t, epyc, h200)
	for _, tc := range []struct {
		here, record, hardware string
		other                  bool
	}{
		{"epyc", epyc, "epyc", false},
		{"h200", h200, "h200", false},
		{"m5max", h200, "h200", true}, // none of m5max: the newest of any
	} {
		c := EstimateCosts(dir, chaotic, tc.here)
		if c.Basis == scenarios.CostGuess || c.Record != filepath.Join(dir, tc.record+".md") || c.Hardware != tc.hardware || c.OtherHardware != tc.other {
			t.Errorf("on %s: %+v, want %s (other hardware %v)", tc.here, c, tc.record, tc.other)
		}
	}
	// This hardware's record unusable (its runs changed after it was
	// written): the other hardware's, marked.
	f, err := os.OpenFile(filepath.Join(dir, "data", epyc, "runs.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("{}\n")
	f.Close()
	if c := EstimateCosts(dir, chaotic, "epyc"); c.Record != filepath.Join(dir, h200+".md") || !c.OtherHardware {
		t.Errorf("with epyc's record unusable: %+v, want h200's, marked other hardware", c)
	}
}
