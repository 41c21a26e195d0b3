package review

import (
	"path/filepath"
	"testing"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
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
		for _, c := range []*schema.HostConditions{r.ConditionsBefore, r.ConditionsAfter} {
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

// The second H200 campaign sampled the GPU inside every measured window
// (one nvidia-smi for the campaign): every run has samples stamped in its
// window, all idle, and decodebench's footprint there, nvidia-smi's CPU
// included, stayed under 0.2% of one core.
func TestH200RecordSampledEveryWindow(t *testing.T) {
	rec, err := recorder.Load(filepath.Join("..", "docs", "benchmark_results", "h200-gpu-window-h200-2026-11-29.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Runs) != 10 {
		t.Fatalf("%d runs", len(rec.Runs))
	}
	for _, r := range rec.Runs {
		w := r.GPUWindow
		if w == nil || len(w.GPUs) != 1 || w.GPUs[0].Samples < 1 || w.Unavailable != "" {
			t.Fatalf("run %d: GPU window %+v", r.Seq, w)
		}
		g := w.GPUs[0]
		if g.UtilMaxPct == nil || *g.UtilMaxPct != 0 || len(g.Reasons) != 1 || g.Reasons[0] != "gpu_idle" || len(w.Warnings) != 0 {
			t.Errorf("run %d: GPU not idle in the window: %+v", r.Seq, g)
		}
		if f := r.Footprint; f == nil || f.SamplerS <= 0 || f.SamplerS >= f.CPUS || f.Reads != "ends" {
			t.Errorf("run %d: footprint %+v", r.Seq, f)
		}
	}
	if f := rec.Method.Footprint; f == nil || f.Share() > 0.002 {
		t.Errorf("footprint %+v, want at most 0.2%% of a core", f)
	}
}
