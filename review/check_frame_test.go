package review

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/redact"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// A record re-rendered with a field of its data block changed apart from
// the scenario it stores fails check, naming the field: the renderer,
// diff and the index read these from the data block, and the stored
// scenario's hash does not cover them. The record as committed passes.
func TestCheckRefusesAForgedFrame(t *testing.T) {
	src := "../docs/benchmark_results/spec-draft-epyc-2026-11-29-2.md"
	srcData := filepath.Join(filepath.Dir(src), "data", "spec-draft-epyc-2026-11-29-2")
	for name, c := range map[string]struct {
		edit func(*schema.Record)
		key  string
	}{
		"as committed":  {func(*schema.Record) {}, ""},
		"primary":       {func(r *schema.Record) { r.Scenario.Primary = "e2e_tok_s" }, "scenario.primary"},
		"baseline":      {func(r *schema.Record) { r.Scenario.Baseline = "draft" }, "scenario.baseline"},
		"alpha":         {func(r *schema.Record) { r.Method.Alpha = 0 }, "method.alpha"},
		"spread gate":   {func(r *schema.Record) { r.Method.MaxSpread = 0.25 }, "method.max_spread"},
		"warmup":        {func(r *schema.Record) { r.Method.Warmup = 3 }, "method.warmup"},
		"expectation":   {func(r *schema.Record) { r.Counters[0].Expect = map[string]string{"draft": "> 1000000"} }, "counters"},
		"not measured":  {func(r *schema.Record) { r.Scenario.Unmeasured = nil }, "scenario.unmeasured"},
		"title":         {func(r *schema.Record) { r.Title = "Another" }, "title"},
		"arm a control": {func(r *schema.Record) { r.Scenario.Arms[2].Control = true }, "scenario.arms"},
		"request":       {func(r *schema.Record) { r.Scenario.Request.MaxTokens = 4096 }, "scenario.request"},
		"rounds run":    {func(r *schema.Record) { r.Method.RoundsRun = 12 }, "rounds run 12"},
	} {
		t.Run(name, func(t *testing.T) {
			rec, err := recorder.Load(src)
			if err != nil {
				t.Fatal(err)
			}
			c.edit(rec)
			probs := Check(writeCopy(t, t.TempDir(), srcData, rec))
			got := ""
			for _, p := range probs {
				if strings.Contains(p.Message, "differ(s) from what the stored scenario decides") || strings.HasPrefix(p.Message, "rounds run") {
					got = p.Message
				}
			}
			switch {
			case c.key == "" && len(probs) > 0:
				t.Errorf("the record as committed: %v", probs)
			case c.key != "" && !strings.Contains(got, "data block's "+c.key) && !strings.Contains(got, ", "+c.key) && !strings.HasPrefix(got, c.key):
				t.Errorf("%s edited: problems %v, want one naming %s", name, probs, c.key)
			}
		})
	}
}

// A mask in the stored scenario stands for any text only where the
// redactor masks a whole value (after a name that reads as a secret's),
// and only in text a reader reads: a scenario that typed "[redacted]"
// as its title, or into a counter's log pattern (a character class that
// matches nearly any line), let its record show another title or pattern
// beside the evidence the stored one gave, and check passed it (a
// review's forgery).
func TestFrameMaskStandsOnlyForAValue(t *testing.T) {
	src := "../docs/benchmark_results/spec-draft-epyc-2026-11-29-2.md"
	dir := filepath.Join(filepath.Dir(src), "data", "spec-draft-epyc-2026-11-29-2")
	yaml, err := os.ReadFile(filepath.Join(dir, "scenario.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		edit func(*scenarios.Scenario, *schema.Record)
		bad  bool
	}{
		"as committed": {func(*scenarios.Scenario, *schema.Record) {}, false},
		"a title typed as the mask": {func(s *scenarios.Scenario, r *schema.Record) {
			s.Title, r.Title = redact.Mask, "Draft speculative decoding is 40% faster"
		}, true},
		"a title masked after a secret's name": {func(s *scenarios.Scenario, r *schema.Record) {
			s.Title, r.Title = "API token: "+redact.Mask, "API token: hf_abc123"
		}, false},
		"a not-measured line masked after a secret's name": {func(s *scenarios.Scenario, r *schema.Record) {
			s.Unmeasured[0], r.Scenario.Unmeasured[0] = "Time to first token: "+redact.Mask, "Time to first token: the command engine streams nothing"
		}, false},
		"a counter's pattern typed with the mask": {func(s *scenarios.Scenario, r *schema.Record) {
			s.Policy.Counters[0].Expr, r.Counters[0].Expr = redact.Mask+`\D*([0-9]+)`, `draft acceptance = 0\.\d+ \(\D*([0-9]+)`
		}, true},
		"a counter's pattern masked after a secret's name": {func(s *scenarios.Scenario, r *schema.Record) {
			s.Policy.Counters[0].Expr, r.Counters[0].Expr = "token: "+redact.Mask, "token: ([0-9]+)"
		}, true},
	} {
		t.Run(name, func(t *testing.T) {
			s, _, err := scenarios.Parse(filepath.Join(dir, "scenario.yaml"), dir, yaml, scenarios.Options{Offline: true})
			if err != nil {
				t.Fatal(err)
			}
			rec, err := recorder.Load(src)
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Unmeasured) == 0 || len(rec.Scenario.Unmeasured) == 0 || len(s.Policy.Counters) == 0 || len(rec.Counters) == 0 {
				t.Fatal("the record has no not-measured line or counter to edit")
			}
			c.edit(s, rec)
			probs := checkFrame(s, rec)
			if got := len(probs) > 0; got != c.bad {
				t.Errorf("problems %v, want some: %v", probs, c.bad)
			}
		})
	}
}
