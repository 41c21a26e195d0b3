package scenarios

import (
	"strings"
	"testing"
)

// Per-token arrival times are off unless the scenario asks for them or
// names a metric that needs them.
func TestEventTimes(t *testing.T) {
	cases := []struct {
		name, base, extra string
		want              bool
	}{
		{"default", quietBase, "", false},
		{"asked", strings.Replace(quietBase, "max_tokens: 16}", "max_tokens: 16, event_times: true}", 1), "", true},
		{"primary itl", quietBase, "metrics: {primary: itl_p50_ms}\n", true},
		{"primary step", quietBase, "metrics: {primary: step_tok_s}\n", true},
		{"expr", strings.Replace(quietBase, "max_tokens: 16}", "max_tokens: 16, endpoint: /v1/completions}", 1), "metrics:\n  extra:\n    - {name: jitter, expr: 'itl_p99_ms / itl_p50_ms'}\n", true},
		{"tpot needs only the ends", quietBase, "metrics: {primary: tpot_ms}\n", false},
	}
	for _, c := range cases {
		s, _, err := Parse("q.yaml", ".", []byte(c.base+c.extra), Options{LookupEnv: noEnv})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if s.Policy.EventTimes != c.want {
			t.Errorf("%s: EventTimes = %v, want %v", c.name, s.Policy.EventTimes, c.want)
		}
	}
}

func TestEventTimesNotForCommandEngines(t *testing.T) {
	src := `feature: c
engine:
  kind: command
  command: [llama-completion, -n, "16"]
  output: {decode_tok_s: 'eval time .* ([0-9.]+) tokens per second'}
  request: {event_times: true}
arms:
  - {name: a}
  - {name: b, args: [-x]}
baseline: a
allow_unverified: test
unmeasured: [Prefill.]
`
	_, _, err := Parse("c.yaml", ".", []byte(src), Options{LookupEnv: noEnv})
	if err == nil || !strings.Contains(err.Error(), "engine.request.event_times") {
		t.Errorf("err = %v", err)
	}
}
