package harness

import (
	"strings"
	"testing"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// A stdout/stderr flood inside a run's measured window is a contention
// warning for that run (it ran as OK before, and unsaid), and values that
// could not be true are said as recorded absent.
func TestOutputFloodAndImpossibleValuesAreSaid(t *testing.T) {
	rec := concluded(t, "", map[string][]float64{"a": steadyA, "b": steadyB}, func(r *schema.Run) {
		if r.Seq == 3 {
			r.EngineOutput = engineOutput(engine.WindowOutput{Bytes: 500 << 20}, 492<<20)
			r.Impossible = []schema.ImpossibleValue{{Source: "timings.predicted_n", Value: "1e+300", Why: schema.OverMaxTokens}}
		}
	})
	w := warnings(rec)
	for _, r := range rec.Analysis.Unmeasured {
		w += "\n" + recorder.ReasonText(rec, r)
	}
	for _, want := range []string{"Engine output flood: in 1 of 12 finished runs the engine wrote more than 1 MiB", "Impossible values: in 1 run(s)"} {
		if !strings.Contains(w, want) {
			t.Errorf("warnings lack %q:\n%s", want, w)
		}
	}
	if o := engineOutput(engine.WindowOutput{Bytes: 1000}, 0); o != nil {
		t.Errorf("a quiet window is recorded: %+v", o)
	}
	clean := concluded(t, "", map[string][]float64{"a": steadyA, "b": steadyB}, nil)
	if w := warnings(clean); strings.Contains(w, "flood") || strings.Contains(w, "Impossible") {
		t.Errorf("clean campaign warns: %s", w)
	}
}
