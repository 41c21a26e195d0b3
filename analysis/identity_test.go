package analysis

import (
	"fmt"
	"regexp"
	"slices"
	"testing"

	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// A start's measured requests after the first are compared token by token
// where their ids are known (schedule.requests), as its first is: tokens
// stay compared; a request without ids leaves the arm's tokens compared
// false; ids that differ under the same text make the arm DIVERGENT.
func TestIdentityComparesEveryRequestsTokens(t *testing.T) {
	p := policy("a", "b")
	p.Exactness = &scenarios.ExactnessPolicy{Compare: []string{"b"}, Against: "a"}
	in := campaign(p, 3, level(map[string]float64{"a": 100, "b": 110}), honest)
	for i := range in.Runs {
		r := &in.Runs[i]
		r.Output, r.TokenIDs = "x\ufffdy", []int{1, 2, 3}
		r.RequestOutputs, r.RequestTokenIDs = []string{"x\ufffdy", "x\ufffdy"}, [][]int{{1, 2, 3}, {1, 2, 3}}
	}
	id := checkIdentity(in)
	if id.Verdict != schema.Identical || !id.Baseline.TokensCompared || !id.Arms[0].TokensCompared || id.Arms[0].Runs != 9 {
		t.Fatalf("every request with ids: %+v", id)
	}
	last := len(in.Runs) - 1
	for in.Runs[last].Arm != "b" {
		last--
	}
	in.Runs[last].RequestTokenIDs[1] = nil
	if id := checkIdentity(in); id.Verdict != schema.Identical || id.Arms[0].TokensCompared {
		t.Errorf("a request without ids: %+v", id.Arms[0])
	}
	in.Runs[last].RequestTokenIDs[1] = []int{1, 4, 3}
	if id := checkIdentity(in); id.Verdict != schema.Divergent || id.Arms[0].TokenIndex != 1 || id.Arms[0].ByteOffset != -1 {
		t.Errorf("other ids under the same text: %+v", id.Arms[0])
	}
}

// What the strip patterns remove is counted in full but listed only to
// schema.StrippedListed matches (an output of a million one-byte matches
// once listed each, about 100 bytes of memory a byte); a result with no
// more matches than that lists every one and no count, as records
// written before the count do.
func TestIdentityListsAFewStrippedMatches(t *testing.T) {
	p := policy("a", "b")
	p.Exactness = &scenarios.ExactnessPolicy{Compare: []string{"b"}, Against: "a", Strip: []*regexp.Regexp{regexp.MustCompile(`^\[spec\] .*\n`)}}
	in := campaign(p, 3, level(map[string]float64{"a": 100, "b": 110}), honest)
	for i := range in.Runs {
		r := &in.Runs[i]
		r.Output = fmt.Sprintf("[spec] run %d\n42\n[spec] end\n", r.Seq)
		r.RequestOutputs = []string{"[spec] request\n42\n"}
	}
	id := checkIdentity(in)
	want := []string{"[spec] run 1\n", "[spec] end\n", "[spec] request\n", "[spec] run 2\n", "[spec] end\n", "[spec] request\n", "[spec] run 3\n", "[spec] end\n"}
	if id.Verdict != schema.Identical || id.StrippedCount != 18 || id.StrippedMatches() != 18 || !slices.Equal(id.Stripped, want) {
		t.Fatalf("18 matches: %s, %d, %q", id.Verdict, id.StrippedCount, id.Stripped)
	}
	in.Campaign.StrippedListed = 18 // as Rederive derives a record that lists them all
	if id := checkIdentity(in); len(id.Stripped) != 18 || id.StrippedCount != 0 || id.StrippedMatches() != 18 {
		t.Errorf("listing 18: %d, %d", len(id.Stripped), id.StrippedCount)
	}
	in.Campaign.StrippedListed = 0
	in.Runs = in.Runs[:2]
	for i := range in.Runs {
		in.Runs[i].RequestOutputs = nil
	}
	if id := checkIdentity(in); len(id.Stripped) != 4 || id.StrippedCount != 0 {
		t.Errorf("4 matches: %d, %d", len(id.Stripped), id.StrippedCount)
	}
}

// Rederive derives a record as it lists its strip matches: one written
// before the count, listing all twelve, is derived again listing twelve;
// one with the count, listing schema.StrippedListed.
func TestRederiveListsAsTheRecordDid(t *testing.T) {
	p := policy("a", "b")
	p.Exactness = &scenarios.ExactnessPolicy{Compare: []string{"b"}, Against: "a", Strip: []*regexp.Regexp{regexp.MustCompile(`^\[spec\] .*\n`)}}
	rec := &schema.Record{Schema: schema.SchemaV5, Analysis: schema.Analysis{Identity: &schema.IdentityResult{}}}
	for i := range 6 {
		rec.Runs = append(rec.Runs, schema.Run{Seq: i + 1, Round: i/2 + 1, Arm: []string{"a", "b"}[i%2], Output: "[spec] x\n42\n[spec] y\n",
			Metrics: map[string]float64{schema.DecodeTokS: 100, schema.WallS: 1}})
	}
	for _, tt := range []struct {
		stored, count, wantListed, wantCount int
	}{{12, 0, 12, 0}, {8, 12, 8, 12}, {9, 0, 9, 12}, {3, 0, 8, 12}} {
		rec.Analysis.Identity.Stripped, rec.Analysis.Identity.StrippedCount = make([]string, tt.stored), tt.count
		a, _, err := Rederive(p, rec)
		if err != nil {
			t.Fatal(err)
		}
		if id := a.Identity; len(id.Stripped) != tt.wantListed || id.StrippedCount != tt.wantCount {
			t.Errorf("stored %d (count %d): derived %d, count %d; want %d, %d", tt.stored, tt.count, len(id.Stripped), id.StrippedCount, tt.wantListed, tt.wantCount)
		}
	}
}
