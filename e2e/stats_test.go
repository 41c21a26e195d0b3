package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A campaign with a negative-control arm: the draft arm, slower by design
// on this machine (its drafts are mostly rejected and cost a verify batch),
// must come out significant in the right direction, and the record must
// state the noise floor the control measures, with both plots.
func TestControlArmCampaign(t *testing.T) {
	needEngine(t)
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
		Rounds: 5,
		Warmup: 1,
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
			if a.SeparatesFromNoise == nil || !*a.SeparatesFromNoise {
				t.Errorf("draft does not separate from the control's noise: %s", a.Sentence)
			}
		case "control":
			control = a.Sentence
		}
	}
	t.Logf("draft: %s\ncontrol: %s", draft, control)
	if !strings.Contains(draft, "slower by") {
		t.Errorf("draft verdict %q, want significantly slower", draft)
	}
	if !strings.Contains(control, "negative control: this is the method's noise floor") {
		t.Errorf("control verdict lacks the noise-floor sentence: %q", control)
	}
	for _, h := range []string{"separates from noise (control `control`): yes", "![timeline](", "![distributions]("} {
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
