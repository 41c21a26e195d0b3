package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// The shipped scenarios that can run here run end to end, shortened with
// the quick-look overrides; each must end with its counters proving its
// arms (never REJECTED or FAILED) and a record that passes check.
func TestShippedScenariosRun(t *testing.T) {
	needEngine(t)
	for _, name := range []string{"llamacpp-ngram", "llamacpp-openai"} {
		t.Run(name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "rec")
			cmd := exec.Command(binary, "run", name, "--out", out, "--hw", "test", "--date", "2026-01-02",
				"--rounds", "2", "--set", "schedule.cooldown=0s", "--set", "schedule.warmup=0", "--set", "engine.request.max_tokens=32",
				"--set", "gates.max_spread=0", "--set", "gates.max_contended=0")
			cmd.Env = append(os.Environ(), "LLAMA_SERVER="+llamaServer, "MODEL_DIR="+modelDir)
			b, err := cmd.CombinedOutput()
			t.Logf("%s", b)
			if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() != 2 {
				t.Fatalf("exit %d", ee.ExitCode())
			} else if err != nil && !ok {
				t.Fatal(err)
			}
			recs, _ := filepath.Glob(filepath.Join(out, "*.md"))
			if len(recs) != 1 {
				t.Fatalf("%d records", len(recs))
			}
			rec, err := recorder.Load(recs[0])
			if err != nil {
				t.Fatal(err)
			}
			if rec.Verdict != schema.Valid && rec.Verdict != schema.Inconclusive {
				t.Errorf("verdict %s", rec.Verdict)
			}
			if len(rec.Scenario.Overrides) != 6 {
				t.Errorf("overrides recorded: %q", rec.Scenario.Overrides)
			}
			if b, err := exec.Command(binary, "check", recs[0]).CombinedOutput(); err != nil {
				t.Errorf("check: %s", b)
			}
		})
	}
}
