package engine

import (
	"fmt"
	"testing"
)

// A reply's timings object keeps MaxTimings numeric fields at most, the
// first by name, so that no engine's reply makes its record one that
// check refuses for naming too many metrics.
func TestTimingsKeepsTheFirstByName(t *testing.T) {
	m := map[string]any{"predicted_n": 5.0, "note": "text"}
	for i := range 3 * MaxTimings {
		m[fmt.Sprintf("z%03d", i)] = float64(i)
	}
	got := numbers(m)
	if len(got) != MaxTimings {
		t.Fatalf("%d fields kept", len(got))
	}
	if _, ok := got["predicted_n"]; !ok {
		t.Error("predicted_n, first by name, was dropped")
	}
	if _, ok := got[fmt.Sprintf("z%03d", MaxTimings-2)]; !ok {
		t.Error("a field among the first by name was dropped")
	}
	if _, ok := got[fmt.Sprintf("z%03d", MaxTimings-1)]; ok {
		t.Error("a field past the bound was kept")
	}
}
