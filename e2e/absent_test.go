package e2e

import (
	"strings"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// A misspelled metric (draft instead of drafts) reads nothing in any run:
// the campaign FAILS as a scenario error named on the console and at the
// top of the record, instead of showing 0 for every arm.
func TestMisspelledMetricIsAScenarioError(t *testing.T) {
	tg := tag(t)
	res := run(t, scenario{
		Feature:   "e2e-misspelled",
		Tag:       tg,
		Rounds:    2,
		MaxTokens: 16,
		Counters: `  - name: drafts
    metric: "llamacpp:spec_decode_num_draft_total"
    expect: {classic: "== 0", draft: "> 0"}
`,
	})
	if res.record == nil || res.record.Verdict != schema.Failed || res.code != 1 {
		t.Fatalf("exit %d, verdict %+v\n%s", res.code, res.record, res.stdout)
	}
	want := "counter `drafts` reads the metric source `llamacpp:spec_decode_num_draft_total`, which was absent in all"
	if !strings.Contains(res.stdout, want) {
		t.Errorf("console lacks %q:\n%s", want, res.stdout)
	}
	top, _, _ := strings.Cut(res.md, "## Summary")
	if !strings.Contains(top, "Scenario error") || !strings.Contains(top, want) {
		t.Errorf("record top lacks the scenario error:\n%s", top)
	}
}
