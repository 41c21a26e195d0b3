package scenarios

import (
	"strings"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

const threadsScenario = `feature: threads
engine:
  preset: llama.cpp
  command: [llama-server, -m, m.gguf, --port, "${PORT}", -t, "2"]
  request: {prompt: p, max_tokens: 8}
arms:
  - name: t2
  - name: t1
    args: [-t, "1"]
baseline: t2
counters:
  - name: threads
    log: 'n_threads = (\d+)'
    phase: startup
    expect: {t2: "== 2", t1: "== 1"}
unmeasured: [nothing]
`

// A log counter of phase startup proves a settings change (-t 1 against
// -t 2) without allow_unverified; phase is a log counter's only, startup
// a server's only, and one of window and startup.
func TestStartupPhaseCounter(t *testing.T) {
	s, _, err := Parse("t.yaml", ".", []byte(threadsScenario), Options{LookupEnv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	if c := s.Policy.Counters[0]; c.Phase != schema.PhaseStartup || c.Kind != schema.SourceLog {
		t.Errorf("policy: %+v", c)
	}
	plain, _, err := Parse("t.yaml", ".", []byte(strings.Replace(threadsScenario, "    phase: startup\n", "", 1)), Options{LookupEnv: noEnv})
	if err != nil || plain.Policy.Counters[0].Phase != schema.PhaseWindow {
		t.Fatalf("a log counter without phase: %v %+v", err, plain)
	}
	if raw, err := plain.unresolvedJSON(); err != nil || strings.Contains(string(raw), "phase") {
		t.Error("a scenario without phase hashes another JSON than before the key")
	}
	for edit, want := range map[[2]string]string{
		{"    phase: startup\n", "    phase: boot\n"}:                                                   `counters[0].phase: "boot" is not one of window, startup`,
		{"    log: 'n_threads = (\\d+)'\n", "    json: timings.n\n"}:                                    "counters[0].phase: phase says which log lines a log counter reads",
		{"  preset: llama.cpp\n", "  kind: command\n  output: {metrics: {decode_tok_s: 'x (\\d+)'}}\n"}: "counters[0].phase: a command engine has no start-up apart from its run",
	} {
		_, _, err := Parse("t.yaml", ".", []byte(strings.Replace(threadsScenario, edit[0], edit[1], 1)), Options{LookupEnv: noEnv})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", edit[1], err, want)
		}
	}
}
