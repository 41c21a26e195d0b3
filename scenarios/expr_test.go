package scenarios

import (
	"slices"
	"strings"
	"testing"
)

// An expression's inputs are what the expression parser reads as names:
// 1e9 is a number, max() a function, and each name counts once.
func TestExprInputs(t *testing.T) {
	cases := []struct {
		src  string
		want []string
	}{
		{"model_bytes * decode_tok_s / 1e9", []string{"model_bytes", "decode_tok_s"}},
		{"accepted / drafted", []string{"accepted", "drafted"}},
		{"1.5e-3 * tokens + 2E6", []string{"tokens"}},
		{"max(accepted, drafted) / drafted", []string{"accepted", "drafted"}},
		{"abs(e - 1)", []string{"e"}},
		{"0x10 * wall_s", []string{"wall_s"}},
	}
	for _, c := range cases {
		got, err := exprInputs(c.src)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("exprInputs(%q) = %q, %v; want %q", c.src, got, err, c.want)
		}
	}
}

// The scenario guide's gbps metric (docs/guide/writing-scenarios.md)
// loads with exactly its two inputs, so a run that has both computes it.
func TestReadmeExprLoads(t *testing.T) {
	s, _, err := Parse("q.yaml", ".", []byte(quietBase+"metrics:\n  extra:\n    - {name: gbps, unit: GB/s, expr: \"model_bytes * decode_tok_s / 1e9\"}\n"), Options{LookupEnv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	m, ok := s.Policy.Metric("gbps")
	if !ok || !slices.Equal(m.Inputs, []string{"model_bytes", "decode_tok_s"}) {
		t.Fatalf("gbps inputs = %q", m.Inputs)
	}
	v, ok := m.Eval(map[string]float64{"model_bytes": 2e9, "decode_tok_s": 10})
	if !ok || v != 20 {
		t.Errorf("gbps = %v, %v; want 20", v, ok)
	}
}

// An extra metric that can never have a value is a load error that says
// why: an input this engine never measures, or an expression that needs
// itself. One that uses a metric declared after it loads.
func TestExprThatCanNeverHaveAValue(t *testing.T) {
	cases := []struct {
		name, extra, want string
	}{
		{"itl on /completion", "    - {name: jitter, expr: 'itl_p99_ms / itl_p50_ms'}\n",
			`metrics.extra[0].expr: "jitter" can never have a value: it uses itl_p99_ms, which this scenario never measures (it is measured on the OpenAI-compatible endpoints (/v1/…) only)`},
		{"tpot on /completion", "    - {name: x, expr: 'tpot_ms * 2'}\n", `it uses tpot_ms`},
		{"self", "    - {name: x, expr: 'x + 1'}\n", `"x" can never have a value: its expression needs itself (x → x)`},
		{"cycle", "    - {name: a, expr: 'b + 1'}\n    - {name: b, expr: 'a * 2'}\n", `(a → b → a)`},
	}
	for _, c := range cases {
		_, _, err := Parse("q.yaml", ".", []byte(quietBase+"metrics:\n  extra:\n"+c.extra), Options{LookupEnv: noEnv})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v\nwant it to contain %s", c.name, err, c.want)
		}
	}
	for _, ok := range []string{
		quietBase + "metrics:\n  extra:\n    - {name: a, expr: 'b + 1'}\n    - {name: b, expr: 'tokens * 2'}\n",
		strings.Replace(quietBase, `request: {prompt: "Once", max_tokens: 16}`, `request: {prompt: "Once", max_tokens: 16, endpoint: /v1/completions}`, 1) +
			"metrics:\n  extra:\n    - {name: jitter, expr: 'itl_p99_ms / itl_p50_ms'}\n",
	} {
		if _, _, err := Parse("q.yaml", ".", []byte(ok), Options{LookupEnv: noEnv}); err != nil {
			t.Errorf("refused: %v\n%s", err, ok)
		}
	}
}

// A command engine reports wall_s and what its output patterns read:
// an expression of anything else can never have a value.
func TestExprOnCommandEngine(t *testing.T) {
	src := `feature: c
engine:
  kind: command
  command: [llama-completion, -n, "16"]
  output: {metrics: {decode_tok_s: 'eval time .* ([0-9.]+) tokens per second'}}
arms:
  - {name: a}
  - {name: b, args: [-x]}
baseline: a
allow_unverified: test
unmeasured: [Prefill.]
metrics:
  extra:
    - {name: per_token, expr: 'wall_s / tokens'}
    - {name: ttft_s, expr: 'ttft_ms / 1000'}
`
	_, _, err := Parse("c.yaml", ".", []byte(src), Options{LookupEnv: noEnv})
	if err == nil || !strings.Contains(err.Error(), `"ttft_s" can never have a value: it uses ttft_ms`) || strings.Contains(err.Error(), "per_token") {
		t.Errorf("err = %v", err)
	}
}
