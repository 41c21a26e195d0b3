package review

import (
	"strings"
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

// An --arm or --against that names no arm of the campaigns is refused,
// and --against with two campaigns: a misspelt --arm compared nothing,
// and the reference's agreement with itself read as identical (exit 0)
// on a record whose draft arm diverged. --arm naming the reference alone
// compares nothing (no result: identity says so and exits 2).
func TestIdentityRefusesArmsThatAreNot(t *testing.T) {
	rec, err := recorder.Load("../docs/benchmark_results/identity-chaotic-epyc-2026-11-29.md")
	if err != nil {
		t.Fatal(err)
	}
	a := campaignOf(rec.Runs, []string{"classic", "draft"}, "classic")
	b := campaignOf(rec.Runs, []string{"classic", "draft"}, "classic")
	for _, c := range []struct {
		b       *Campaign
		against string
		only    []string
		want    string
	}{
		{nil, "", []string{"typo"}, `--arm "typo" is not an arm of the campaign (its arms: classic, draft)`},
		{nil, "typo", nil, `--against "typo" is not an arm of the campaign`},
		{b, "", []string{"classic", "typo"}, `--arm "typo" is not an arm of campaign A`},
		{b, "classic", nil, "--against names one campaign's reference arm"},
		{nil, "", []string{"draft"}, ""},
		{b, "", []string{"draft"}, ""},
	} {
		err := IdentityNames(a, c.b, c.against, c.only)
		if got := ""; err != nil {
			got = err.Error()
			if c.want == "" || !strings.Contains(got, c.want) {
				t.Errorf("against %q, arms %q: %v, want %q", c.against, c.only, err, c.want)
			}
		} else if c.want != "" {
			t.Errorf("against %q, arms %q: nothing refused, want %q", c.against, c.only, c.want)
		}
	}
	if got := Identity(a, nil, "", []string{"classic"}, nil); len(got) != 0 {
		t.Errorf("--arm naming the reference alone: %+v, want nothing compared", got)
	}
	if got := Identity(a, nil, "", []string{"draft"}, nil); len(got) != 1 || got[0].Verdict != schema.Divergent {
		t.Errorf("--arm draft: %+v", got)
	}
}
