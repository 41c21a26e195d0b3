package estimate_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/decodebench/decodebench/estimate"
	"github.com/decodebench/decodebench/internal/committed"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/review"
	"github.com/decodebench/decodebench/scenarios"
)

// costsIn finds costs in dir as the commands do, on a machine of hardware
// here.
func costsIn(dir, here string) estimate.Records {
	return estimate.Records{Dir: dir, Here: func() string { return here }, List: review.LoadHistory, Load: recorder.Load}
}

// copyRecords copies committed records (docs/benchmark_results) and their
// data folders into a new folder.
func copyRecords(t *testing.T, names ...string) string { return committed.Copy(t, names...) }

// TestRecordsCosts: the estimate goes by the newest record of the
// feature with a noise anatomy or runs with wall times, read through the
// guarded reader: a newer record that is a link, or whose runs changed
// after it was written, is passed over; a record of another feature, or
// none, leaves the guess; a record of hardware other than the one the
// scenario names is taken, marked, when none of that hardware's is there.
func TestRecordsCosts(t *testing.T) {
	spec := demo(t)
	const anatomy, runs4, runs3 = "spec-draft-epyc-2026-12-02", "spec-draft-epyc-2026-11-29-4", "spec-draft-epyc-2026-11-29-3"

	dir := copyRecords(t, runs3, anatomy, runs4, "identity-chaotic-h200-2026-12-02")
	if c := costsIn(dir, "epyc").Costs(spec.EstimateShape()); c.Basis != estimate.BasisAnatomy || c.Record != filepath.Join(dir, anatomy+".md") {
		t.Errorf("newest with an anatomy: %+v", c)
	}

	dir = copyRecords(t, runs3, runs4)
	c := costsIn(dir, "epyc").Costs(spec.EstimateShape())
	if c.Basis != estimate.BasisRuns || c.Record != filepath.Join(dir, runs4+".md") {
		t.Errorf("newest, by its runs: %+v", c)
	}
	// A newer record that is a link to another is not read.
	if err := os.Symlink(filepath.Join(copyRecords(t, anatomy), anatomy+".md"), filepath.Join(dir, "spec-draft-epyc-2026-12-09.md")); err != nil {
		t.Fatal(err)
	}
	// It is named as passed over, the costs the same.
	got := costsIn(dir, "epyc").Costs(spec.EstimateShape())
	link := filepath.Join(dir, "spec-draft-epyc-2026-12-09.md")
	if len(got.Unread) != 1 || got.Unread[0] != link {
		t.Errorf("with a linked newer record: passed over %q, want it", got.Unread)
	}
	if got.Unread = nil; !reflect.DeepEqual(got, c) {
		t.Errorf("with a linked newer record: %+v, want %+v", got, c)
	}
	// Runs changed after the record was written: passed over for the next.
	f, err := os.OpenFile(filepath.Join(dir, "data", runs4, "runs.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("{}\n")
	f.Close()
	if c := costsIn(dir, "epyc").Costs(spec.EstimateShape()); c.Basis != estimate.BasisRuns || c.Record != filepath.Join(dir, runs3+".md") {
		t.Errorf("with runs changed after: %+v", c)
	}

	h200 := *spec
	h200.Hardware = "h200"
	for name, tc := range map[string]struct {
		dir string
		s   *scenarios.Scenario
	}{
		"other feature": {copyRecords(t, "identity-chaotic-h200-2026-12-02"), spec},
		"no folder":     {filepath.Join(t.TempDir(), "none"), spec},
	} {
		if c := costsIn(tc.dir, "epyc").Costs(tc.s.EstimateShape()); !reflect.DeepEqual(c, estimate.Guess(tc.s.EstimateShape())) {
			t.Errorf("%s: %+v, want the guess", name, c)
		}
	}
	// A scenario naming hardware of which the folder holds no record:
	// other hardware's, marked (it took the guess over a record of its
	// feature).
	other := copyRecords(t, anatomy)
	if c := costsIn(other, "epyc").Costs(h200.EstimateShape()); c.Record != filepath.Join(other, anatomy+".md") || c.Hardware != "epyc" || !c.OtherHardware {
		t.Errorf("hardware h200 with a record of epyc: %+v, want epyc's, marked other hardware", c)
	}
}

// TestRecordsCostsPrefersThisHardware: for a scenario of hardware "auto"
// the estimate goes by a record of the hardware the campaign would record,
// even when a record of other hardware is newer, and takes other hardware's
// newest only when none of this one's can be used, marked as such.
func TestRecordsCostsPrefersThisHardware(t *testing.T) {
	chaotic, _, err := scenarios.Load("llamacpp-identity-chaotic", scenarios.Options{LookupEnv: noEnv})
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
		c := costsIn(dir, tc.here).Costs(chaotic.EstimateShape())
		if c.Basis == estimate.BasisGuess || c.Record != filepath.Join(dir, tc.record+".md") || c.Hardware != tc.hardware || c.OtherHardware != tc.other {
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
	if c := costsIn(dir, "epyc").Costs(chaotic.EstimateShape()); c.Record != filepath.Join(dir, h200+".md") || !c.OtherHardware {
		t.Errorf("with epyc's record unusable: %+v, want h200's, marked other hardware", c)
	}
}
