package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/decodebench/decodebench/recorder"
)

// BenchmarkCampaignFootprint runs one real campaign of the shipped
// scenario per iteration (make bench runs one) and reports what it costs
// and how well it measures:
//
//   - own-cpu-%core: decodebench's CPU time (rusage) during the measured
//     windows over the windows' length, in percent of one core;
//   - client/engine: the client-side decode rate over the engine's own
//     (1 = the two clocks agree);
//   - overhead: campaign wall time over the time spent in engine starts,
//     warmups, measured requests, stops and cooldowns (1 = no overhead).
func BenchmarkCampaignFootprint(b *testing.B) {
	if setupErr != nil {
		b.Skip(setupErr)
	}
	var cpu, window, ratio, overhead float64
	for i := 0; i < b.N; i++ {
		out := filepath.Join(b.TempDir(), "rec")
		start := time.Now()
		cmd := exec.Command(binary, "run", "llamacpp-speculative", "--out", out, "--hw", "bench",
			"--rounds", "4", "--set", "engine.request.max_tokens=256", "--set", "gates.max_spread=0", "--set", "gates.max_contended=0")
		cmd.Env = append(os.Environ(), "LLAMA_SERVER="+llamaServer, "MODEL_DIR="+modelDir, "DECODEBENCH_LOCK="+filepath.Join(b.TempDir(), "lock"))
		if b, err := cmd.CombinedOutput(); err != nil {
			if _, ok := err.(*exec.ExitError); !ok {
				panic(string(b))
			}
		}
		wall := time.Since(start).Seconds()
		recs, _ := filepath.Glob(filepath.Join(out, "*.md"))
		if len(recs) != 1 {
			b.Fatalf("%d records", len(recs))
		}
		rec, err := recorder.Load(recs[0])
		if err != nil {
			b.Fatal(err)
		}
		busy := 0.0
		for _, r := range rec.Runs {
			busy += r.Seconds + r.CooldownS
			if r.Footprint != nil {
				cpu += r.Footprint.CPUS
				window += r.Footprint.WindowS
			}
		}
		ratio += rec.Analysis.ClientEngineRatio
		overhead += wall / busy
	}
	if window > 0 {
		b.ReportMetric(100*cpu/window, "own-cpu-%core")
	}
	b.ReportMetric(ratio/float64(b.N), "client/engine")
	b.ReportMetric(overhead/float64(b.N), "overhead")
}
