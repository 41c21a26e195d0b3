package review

import (
	"testing"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// An arm of the record without a finished run is compared, and is an
// error: left out, the rest read identical and identity exited 0 on a
// record whose own page says ERROR for that arm.
func TestIdentityComparesAnArmWithoutRuns(t *testing.T) {
	rec, err := recorder.Load("../docs/benchmark_results/spec-draft-epyc-2026-12-05-4.md")
	if err != nil {
		t.Fatal(err)
	}
	var arms []string
	for _, a := range rec.Scenario.Arms {
		arms = append(arms, a.Name)
	}
	whole := Identity(campaignOf(rec.Runs, arms, rec.Scenario.Baseline), nil, "", nil, nil)
	if len(whole) != 1 || whole[0].Verdict != schema.Identical {
		t.Fatalf("the record as it is: %+v", whole)
	}
	for i := range rec.Runs {
		if rec.Runs[i].Arm == "draft" {
			rec.Runs[i].Error = "measured request: the engine exited"
		}
	}
	res := Identity(campaignOf(rec.Runs, arms, rec.Scenario.Baseline), nil, "", nil, nil)
	var draft *schema.IdentityArm
	for i, a := range res[0].Arms {
		if a.Arm == "draft" {
			draft = &res[0].Arms[i]
		}
	}
	if draft == nil || draft.Verdict != schema.IdentityError || res[0].Verdict != schema.IdentityError {
		t.Errorf("verdict %s, the arm without a finished run: %+v", res[0].Verdict, draft)
	}
	// A runs.jsonl names no scenario: its arms are its finished runs'.
	if c := campaignOf(rec.Runs, nil, ""); c == nil || len(c.Arms) != 2 || c.Baseline != "classic" {
		t.Errorf("runs alone: %+v", c)
	}
}
