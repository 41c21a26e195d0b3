package harness

import (
	"strings"
	"testing"

	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// A run line says CONTENDED only where the analysis judges the run's
// contention: a measured request shorter than MinContentionWindow is not
// judged (a background tick reads as heavy contention), and the record
// said so while the console said CONTENDED.
func TestRunSummaryContendedAsJudged(t *testing.T) {
	c := &campaign{policy: scenarios.Policy{Primary: schema.DecodeTokS, Gates: scenarios.GatesPolicy{ContendedCPU: 0.1, MinContentionWindow: scenarios.MinContentionWindow}}}
	run := func(wall float64) schema.Run {
		return schema.Run{Arm: "a", Metrics: map[string]float64{schema.DecodeTokS: 100, schema.WallS: wall}, Contention: &schema.ContentionSample{Others: 0.13}}
	}
	if s := c.runSummary(run(0.05)); strings.Contains(s, "CONTENDED") {
		t.Errorf("a 50 ms request: %q", s)
	}
	if s := c.runSummary(run(1)); !strings.Contains(s, "CONTENDED: other processes used 13% of the CPU") {
		t.Errorf("a 1 s request: %q", s)
	}
}
