package review

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/recorder"
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
