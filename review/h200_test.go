package review

import (
	"path/filepath"
	"testing"

	"github.com/decodebench/decodebench/recorder"
)

// The campaign run on a real H200 host with the CPU build of llama-server
// (committed as a record) recorded the GPU before and after every run, and
// the GPU stayed idle throughout, as its "not measured" section says.
func TestH200RecordShowsAnIdleGPU(t *testing.T) {
	rec, err := recorder.Load(filepath.Join("..", "docs", "benchmark_results", "h200-cpu-check-h200-2026-11-29.md"))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Hardware != "h200" || len(rec.Machine.GPUs) != 1 || rec.Machine.GPUs[0].Name != "NVIDIA H200" {
		t.Fatalf("machine %+v", rec.Machine)
	}
	for _, r := range rec.Runs {
		for _, c := range []*recorder.HostConditions{r.ConditionsBefore, r.ConditionsAfter} {
			if c == nil || len(c.GPUs) != 1 {
				t.Fatalf("run %d: no GPU conditions", r.Seq)
			}
			g := c.GPUs[0]
			if g.UtilPct == nil || *g.UtilPct != 0 || g.MemUsedMiB == nil || *g.MemUsedMiB > 100 {
				t.Errorf("run %d: GPU not idle: %+v", r.Seq, g)
			}
		}
	}
}
