package harness

import (
	"os"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// A llama-completion run whose log lost its "eval time" line (real output,
// cut there as the CLI's unflushed log thread cuts it) fails, to be
// retried, rather than being kept with the "prompt eval time" line's rate
// (312 tokens/s for 142) and a count of 0: the shipped pattern does not
// match the prompt line, and where a looser pattern does, the declared
// tokens pattern's missing count fails the run. The whole output reads the
// decode line.
func TestLostTimingLineFailsTheRun(t *testing.T) {
	b, err := os.ReadFile("testdata/llama-completion-t2.out")
	if err != nil {
		t.Fatal(err)
	}
	whole := strings.Split(string(b), "\n")
	cut := -1
	for i, l := range whole {
		if strings.Contains(l, "       eval time =") {
			cut = i
		}
	}
	if cut < 0 {
		t.Fatal("the fixture has no eval time line")
	}
	read := func(loose bool, lines []string) (*schema.Run, error) {
		s, _, err := scenarios.Load("llamacpp-cli", scenarios.Options{Offline: true})
		if err != nil {
			t.Fatal(err)
		}
		if loose {
			s.Engine.Output.Metrics = map[string]string{"decode_tok_s": `eval time = .*, +([0-9.]+) tokens per second`}
		}
		e := newCommandExecutor(&campaign{scenario: s})
		run := &schema.Run{Arm: "t2", Metrics: map[string]float64{}}
		return run, e.figures(lines, run)
	}
	for _, loose := range []bool{false, true} {
		run, err := read(loose, whole)
		if err != nil || run.Metrics["decode_tok_s"] != 142.30 || run.Tokens != 15 {
			t.Errorf("loose %v, the whole output: %v, metrics %v, tokens %d", loose, err, run.Metrics, run.Tokens)
		}
		want := map[bool]string{false: "no match for the decode_tok_s pattern", true: "no match for the tokens pattern"}[loose]
		run, err = read(loose, whole[:cut])
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("loose %v, the output without its eval time line: %v, metrics %v, tokens %d", loose, err, run.Metrics, run.Tokens)
		}
	}
}
