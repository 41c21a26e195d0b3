package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// A campaign with a negative-control arm states, per arm, a verdict against
// the baseline, the noise floor the control measures and whether the other
// arm separates from it, with both plots, in the record and in --json.
func TestControlArmCampaign(t *testing.T) {
	tg := tag(t)
	res := run(t, scenario{
		Feature: "e2e-control",
		Tag:     tg,
		Arms: `  - name: classic
    args: ["--spec-type", "none"]
  - name: control
    control: true
    args: ["--spec-type", "none"]
  - name: draft
    args: ["--spec-type", "draft-simple", "--spec-draft-model", "${MODEL_DIR}/draft.gguf"]
`,
		Rounds:    5,
		Warmup:    1,
		MaxTokens: 32,
	}, "--json")
	if res.record == nil {
		t.Fatalf("no record (exit %d)", res.code)
	}
	if res.code != 0 && res.code != 2 {
		t.Fatalf("exit %d, want 0 or 2", res.code)
	}
	var sum struct {
		Verdict     string `json:"verdict"`
		ArmVerdicts []struct {
			Arm, Sentence      string
			SeparatesFromNoise *bool `json:"separates_from_noise"`
		} `json:"arm_verdicts"`
	}
	if err := json.Unmarshal([]byte(res.stdout), &sum); err != nil {
		t.Fatalf("--json output: %v\n%s", err, res.stdout)
	}
	if sum.Verdict != string(res.record.Verdict) || len(sum.ArmVerdicts) != 2 {
		t.Fatalf("summary %+v", sum)
	}
	var draft, control string
	for _, a := range sum.ArmVerdicts {
		switch a.Arm {
		case "draft":
			draft = a.Sentence
			if a.SeparatesFromNoise == nil {
				t.Errorf("draft verdict does not say whether it separates from the control: %s", a.Sentence)
			}
		case "control":
			control = a.Sentence
		}
	}
	t.Logf("draft: %s\ncontrol: %s", draft, control)
	// This shared 2-core host is throttled now and then (classic decode
	// has been seen to climb from 130 to 290 tok/s within one campaign),
	// and under a background load llama.cpp's speed turns around (with
	// one of two cores busy, one thread decoded 3x faster than two): which
	// way the draft goes, and whether it reaches significance in 5 rounds,
	// is the engine's and the host's, not asserted here (the simulation
	// tests in stats/ prove the statistics; TestArmEnginesCopyAndHeavier
	// finds a known slowdown). What must hold whatever the noise: the
	// sentence says what the record's comparison says, and every verdict
	// line has its parts.
	dec, ok := res.record.Result(schema.DecodeTokS)
	if !ok {
		t.Fatal("no decode_tok_s result")
	}
	var cmp *schema.Comparison
	for _, a := range dec.Arms {
		if a.Arm == "draft" {
			cmp = a.Comparison
		}
	}
	if cmp == nil || !strings.Contains(draft, "`draft` vs `classic`: ") {
		t.Fatalf("draft verdict %q, comparison %+v", draft, cmp)
	}
	slower, faster := strings.Contains(draft, "% slower"), strings.Contains(draft, "% faster")
	if slower != (cmp.Significant && cmp.Ratio < 1) || faster != (cmp.Significant && cmp.Ratio > 1) {
		t.Errorf("draft verdict %q does not say what its comparison says: significant %v, ratio %.3f", draft, cmp.Significant, cmp.Ratio)
	}
	// New records use schema.RuleCurrent: the control is an equivalence
	// test with its margin; "separates from noise" is said only beside a
	// significant arm; the MDE is stated in both directions.
	if !strings.Contains(control, "equivalent to the baseline within ±2.0%") && !strings.Contains(control, "DIFFERS") {
		t.Errorf("control verdict lacks the equivalence test: %q", control)
	}
	if sig := slower || faster; sig != strings.Contains(draft, "separates from noise (vs control `control`") {
		t.Errorf("draft verdict: \"separates from noise\" must appear exactly when the change is significant (significant: %v): %q", sig, draft)
	}
	// The MDE in both directions, or why there is none (a campaign of 5
	// rounds with a stall can be refused for it too often to reach 80%).
	var dv *schema.ArmVerdict
	for i := range res.record.Analysis.ArmVerdicts {
		if res.record.Analysis.ArmVerdicts[i].Arm == "draft" {
			dv = &res.record.Analysis.ArmVerdicts[i]
		}
	}
	switch {
	case dv == nil:
		t.Errorf("no verdict of arm draft in the record")
	case dv.MDE > 0 && !strings.Contains(draft, "(increase) / −"):
		t.Errorf("draft verdict lacks the MDE in both directions: %q", draft)
	case dv.MDE == 0 && !strings.Contains(draft, "; no minimum detectable effect at 80% power"):
		t.Errorf("draft verdict has no MDE and does not say why: %q", draft)
	}
	if res.record.Method.Rule != schema.RuleCurrent {
		t.Errorf("record rule %q, want %q", res.record.Method.Rule, schema.RuleCurrent)
	}
	// The control, which has no counter expectation of its own, is judged
	// by the baseline's, and the record says so (robust-12; "—" before),
	// beside its readings marked as judged.
	for _, want := range []string{"expects `classic` == 0, `control` == 0 (the baseline's), `draft` &gt; 0.", "| `control` | == 0 (the baseline's) |", "- 5 rounds × 3 arms, order"} {
		if !strings.Contains(res.md, want) {
			t.Errorf("record lacks %q", want)
		}
	}
	for _, h := range []string{"![timeline](", "![distributions](", "On `decode_tok_s` (ratio intervals round by round"} {
		if !strings.Contains(res.md, h) {
			t.Errorf("record lacks %q", h)
		}
	}
	data := filepath.Join(filepath.Dir(res.path), res.record.DataDir)
	for _, f := range res.record.Plots {
		if st, err := os.Stat(filepath.Join(data, f)); err != nil || st.Size() < 1000 {
			t.Errorf("plot %s: %v", f, err)
		}
	}
	if len(res.record.Plots) != 4 {
		t.Errorf("plots %v", res.record.Plots)
	}
}

// Adaptive rounds keep adding whole rounds, in the same rotation, until the
// ratio interval is narrow enough or the maximum is reached, planned in
// two stages; the record says which stopped it.
func TestAdaptiveRounds(t *testing.T) {
	res := run(t, scenario{
		Feature:   "e2e-adaptive",
		MaxTokens: 16,
		// An interval narrower than 0.01% is out of reach: the maximum
		// must stop the schedule.
		Extra: "#adaptive\n",
	})
	if res.record == nil {
		t.Fatalf("no record (exit %d)", res.code)
	}
	m := res.record.Method
	if m.RoundsRun != 4 || len(res.record.Runs) != 8 || !strings.Contains(m.StoppedBy, "maximum of 4 rounds reached") {
		t.Fatalf("rounds run %d, runs %d, stopped by %q", m.RoundsRun, len(res.record.Runs), m.StoppedBy)
	}
	// Rounds 1-3 are the minimum; the fourth, added, must continue the
	// rotation (draft first), not restart it.
	if got := strings.Join(armsOf(res.record.Runs), " "); got != "classic draft draft classic classic draft draft classic" {
		t.Errorf("order %q: the added round must continue the rotation", got)
	}
	if !strings.Contains(res.stderr, "adaptive rounds: widest ratio interval") {
		t.Error("progress does not say why a round was added")
	}
	// Two stages (robust-14): the rounds planned once from the first
	// three, the comparison's error the first stage's noise.
	if !strings.Contains(m.StoppedBy, "the first 3 rounds' widest ratio interval") || !strings.Contains(res.md, "Stein's two-stage procedure") {
		t.Errorf("stopped by %q; the record does not say the schedule ran in two stages", m.StoppedBy)
	}
	// The method names the rounds run, not the schedule's minimum alone
	// (robust-12), and the cooldowns apart from the time between runs.
	for _, want := range []string{"- 4 rounds × 2 arms run (the schedule's minimum: 3 rounds), order", "- Cooldowns slept: ", "from a run's end to the next's start"} {
		if !strings.Contains(res.md, want) {
			t.Errorf("record lacks %q", want)
		}
	}
}
