package e2e

import (
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// The shipped scenarios that can run here run end to end, shortened with
// the quick-look overrides; each must end with its counters proving its
// arms (never REJECTED or FAILED) and a record that passes check.
func TestShippedScenariosRun(t *testing.T) {
	for _, name := range []string{"llamacpp-ngram", "llamacpp-openai"} {
		t.Run(name, func(t *testing.T) {
			code, rec, _, _ := runScenario(t, name, []string{"--rounds", "2", "--set", "schedule.cooldown=0s", "--set", "schedule.warmup=0",
				"--set", "engine.request.max_tokens=32", "--set", "gates.max_spread=0", "--set", "gates.max_contended=0",
				// A busy host costs one wait; half a second of quiet a run,
				// not the shipped five (most of every run's time here).
				"--set", "gates.quiet.max_wait=10s", "--set", "gates.quiet.window=500ms", "--set", "gates.quiet.interval=500ms"}, "LLAMA_SERVER="+llamaServer)
			if code != 0 && code != 2 {
				t.Fatalf("exit %d", code)
			}
			if rec.Verdict != schema.Valid && rec.Verdict != schema.Inconclusive {
				t.Errorf("verdict %s", rec.Verdict)
			}
			if len(rec.Scenario.Overrides) != 9 {
				t.Errorf("overrides recorded: %q", rec.Scenario.Overrides)
			}
		})
	}
}
