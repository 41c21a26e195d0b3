package scenarios

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// A command engine's pattern that reads llama.cpp's prompt line as well as
// its decode line is warned of, at its key; the shipped scenario's
// anchored patterns are not; the lines it is judged on are real
// llama-completion output.
func TestPatternThatReadsThePromptLineWarns(t *testing.T) {
	b, err := os.ReadFile("../harness/testdata/llama-completion-t2.out")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	if !slices.Contains(lines, llamaPromptLine) || !slices.Contains(lines, llamaEvalLine) {
		t.Fatal("the prompt and eval lines are not llama-completion's own")
	}
	warned := func(errs Errors) []string {
		var keys []string
		for _, e := range errs {
			if e.Warning && strings.Contains(e.Msg, `"prompt eval time" line`) {
				keys = append(keys, e.Key)
			}
		}
		return keys
	}
	_, errs, err := Load("llamacpp-cli", Options{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	if k := warned(errs); len(k) != 0 {
		t.Errorf("the shipped scenario is warned of at %v", k)
	}
	src := `feature: loose
engine:
  kind: command
  command: ["llama-completion"]
  output:
    metrics: {decode_tok_s: 'eval time = .*, +([0-9.]+) tokens per second'}
    tokens: 'eval time = .* / +([0-9]+)'
arms:
  - {name: a}
  - {name: b, args: ["-t", "1"]}
baseline: a
allow_unverified: test
unmeasured: [x]
`
	_, errs, err = Parse("loose.yaml", ".", []byte(src), Options{LookupEnv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	if k := warned(errs); !slices.Equal(k, []string{"engine.output.metrics.decode_tok_s", "engine.output.tokens"}) {
		t.Errorf("warned at %v, want both patterns", k)
	}
}
