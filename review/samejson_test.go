package review

import (
	"bytes"
	"encoding/json"
	"math"
	"path/filepath"
	"testing"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// On every committed record, the data block's analysis and a fresh one
// are found the same without encoding them (check's fast path), and
// whenever sameJSON says so their encodings agree; +0 against -0, nil
// against empty, and any changed number are not the same.
func TestSameJSON(t *testing.T) {
	paths, _ := filepath.Glob("../docs/benchmark_results/*.md")
	fast := 0
	for _, p := range paths {
		rec, err := recorder.Load(p)
		if err != nil || rec.DataDir == "" {
			continue
		}
		dir, _ := recorder.DataPath(p, rec)
		s, _, err := scenarios.Load(filepath.Join(dir, recorder.ScenarioFile), scenarios.Options{Offline: true, PromptText: rec.Scenario.Request.Prompt, Set: rec.Scenario.Overrides})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		fresh, _, _ := analysis.Record(s.Policy, rec.Runs, rec.Method, rec.Schema)
		a, _ := json.Marshal(rec.Analysis)
		b, _ := json.Marshal(fresh)
		same := sameJSON(rec.Analysis, fresh)
		if same && !bytes.Equal(a, b) {
			t.Errorf("%s: sameJSON, but the encodings differ", p)
		}
		if same {
			fast++
		}
		if len(fresh.Results) > 0 && len(fresh.Results[0].Arms) > 0 {
			changed := fresh
			changed.Results = append([]schema.MetricResult(nil), fresh.Results...)
			changed.Results[0].Arms = append([]schema.ArmResult(nil), fresh.Results[0].Arms...)
			changed.Results[0].Arms[0].Median = math.Nextafter(changed.Results[0].Arms[0].Median, math.Inf(1))
			if sameJSON(rec.Analysis, changed) {
				t.Errorf("%s: a median one ulp higher is the same", p)
			}
		}
	}
	if fast == 0 {
		t.Error("no committed record's analysis took the fast path")
	}
	t.Logf("%d of %d records by the fast path", fast, len(paths))
	if sameJSON(0.0, math.Copysign(0, -1)) || sameJSON([]int{}, []int(nil)) || !sameJSON(map[string][]float64{"a": {1}}, map[string][]float64{"a": {1}}) {
		t.Error("zero signs, nil slices or equal maps misjudged")
	}
}
