package export

import (
	"bytes"
	"path/filepath"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/decodebench/decodebench/internal/committed"
	"github.com/decodebench/decodebench/recorder"
)

// Every committed record's export holds a value of each metric its
// results give a value for, the primary first on every line: built-in
// metrics without a benchmark unit (step_tok_s, energy_j_per_tok,
// aggregate_decode_tok_s, a record's primary among them) were left out.
func TestExportHoldsEveryMetricOfTheRecord(t *testing.T) {
	for _, path := range committed.Records(t) {
		rec, err := recorder.LoadFigures(path)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := Benchstat(&b, rec, "x"); err != nil {
			t.Fatal(err)
		}
		units := map[string]bool{}
		lines := 0
		r := benchfmt.NewReader(&b, "x")
		for r.Scan() {
			res, ok := r.Result().(*benchfmt.Result)
			if !ok {
				continue
			}
			lines++
			for _, v := range res.Values {
				units[v.Unit] = true
			}
			primary := benchMetrics(rec)[0].Bench
			at := -1
			for i, v := range res.Values {
				if v.Unit == primary {
					at = i
				}
			}
			if at > 0 {
				t.Errorf("%s: a line's primary %s is its value %d, not its first", path, rec.Scenario.Primary, at+1)
			}
		}
		if lines == 0 {
			continue // a record without a run that counts
		}
		for _, res := range rec.Analysis.Results {
			has := false
			for _, a := range res.Arms {
				has = has || a.N > 0
			}
			want := ""
			for _, m := range benchMetrics(rec) {
				if m.Name == res.Metric {
					want = m.Bench
				}
			}
			if has && (want == "" || !units[want]) {
				t.Errorf("%s: the export has no %s (unit %q); it has %v", filepath.Base(path), res.Metric, want, units)
			}
		}
	}
}
