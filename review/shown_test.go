package review

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/history"
	"github.com/decodebench/decodebench/internal/synthrecords"
	"github.com/decodebench/decodebench/schema"
)

// claimRatios rewrites a record's data block to claim VALID with every
// ratio 2.5 and significant, leaving its Markdown and runs as they are:
// what a forger writes to head the index; check fails it.
func claimRatios(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := regexp.MustCompile(`"ratio": [-0-9.e+]+`).ReplaceAllString(string(b), `"ratio": 2.5`)
	s = strings.ReplaceAll(s, `"significant": false`, `"significant": true`)
	s = regexp.MustCompile(`\n  "verdict": "[A-Z]+"`).ReplaceAllString(s, "\n  \"verdict\": \"VALID\"")
	if s == string(b) {
		t.Fatal("nothing to forge")
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func synthFleet(t *testing.T, n int) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	paths, err := synthrecords.Generate(synthrecords.Spec{Source: demoRecord, Dir: dir, N: n, Link: true,
		Start: time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC), Noise: 0.01, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	return dir, paths
}

// The index shows no number a record only claims: the newest record's
// data block says VALID at 2.5×, its runs say otherwise, so check fails
// it; the row shows the newest record that passes check, names the one
// that does not, and the trend leaves it out; the feature page lists it
// as failing check, with no headline. A row whose only record fails
// check shows no verdict and no numbers either, and draws no trend.
func TestIndexShowsOnlyCheckedNumbers(t *testing.T) {
	dir, paths := synthFleet(t, 3)
	claimRatios(t, paths[2])
	if _, err := Index(dir, nil); err != nil {
		t.Fatal(err)
	}
	top, _ := os.ReadFile(filepath.Join(dir, IndexFile))
	page, _ := os.ReadFile(filepath.Join(dir, "index", "spec-draft.md"))
	if strings.Contains(string(top), "2.500") || strings.Contains(string(page), "2.500") {
		t.Errorf("a claimed ratio is shown:\n%s\n%s", top, page)
	}
	for _, want := range []string{"[" + stemOf(paths[1]) + "](", "1 other record(s) fail check, the newest (" + stemOf(paths[2]) + ") among them"} {
		if !strings.Contains(string(top), want) {
			t.Errorf("the top page lacks %q:\n%s", want, top)
		}
	}
	if want := "[" + stemOf(paths[2]) + "](../" + stemOf(paths[2]) + ".md) | fails check | — |"; !strings.Contains(string(page), want) {
		t.Errorf("the feature page lacks %q:\n%s", want, page)
	}

	one, lone := synthFleet(t, 1)
	claimRatios(t, lone[0])
	if _, err := Index(one, nil); err != nil {
		t.Fatal(err)
	}
	top, _ = os.ReadFile(filepath.Join(one, IndexFile))
	if want := ") 2026-09-01 | fails check | — | — | 1 | none | ⚠ "; !strings.Contains(string(top), want) {
		t.Errorf("the top page lacks %q:\n%s", want, top)
	}
	if strings.Contains(string(top), "trend.png") {
		t.Errorf("the trend plot draws a record that fails check:\n%s", top)
	}
}

// The trend takes only records that pass check, and a bisect summary
// that fails check shows no result and settles no step.
func TestTrendAndBisectTakeOnlyChecked(t *testing.T) {
	rec := func(ratio float64) *schema.Record {
		r := &schema.Record{Verdict: schema.Valid}
		r.Analysis.ArmVerdicts = []schema.ArmVerdict{{Arm: "draft", Comparison: schema.Comparison{Ratio: ratio, Lo: ratio - 0.1, Hi: ratio + 0.1}}}
		return r
	}
	bad := []Problem{{Section: "Data", Message: "forged"}}
	rs := []FleetRecord{{Rec: rec(2.5), Problems: bad}, {Rec: rec(1.1)}, {Rec: rec(1.0)}}
	if xs := FirstRatios(rs); len(xs) != 2 || xs[1] != 1.1 {
		t.Errorf("first ratios %v, want [1 1.1]", xs)
	}
	if got := sparkline(rs); strings.Contains(got, "2.500") {
		t.Errorf("sparkline %q takes a record that fails check", got)
	}
	row := FleetRow{Records: rs, WithProblems: 1}
	if got := row.Latest(); got.Rec.Analysis.ArmVerdicts[0].Comparison.Ratio != 1.1 {
		t.Errorf("latest %+v, want the newest that passes check", got)
	}
	if h := headline(rs[0]); h != "—" || verdictCell(rs[0]) != FailsCheck {
		t.Errorf("a record that fails check reads %q, %q", verdictCell(rs[0]), h)
	}
	s := &schema.Bisect{Feature: "f", Good: strings.Repeat("a", 40), Bad: strings.Repeat("b", 40)}
	s.Outcome.Result, s.Outcome.FirstBad = "found", strings.Repeat("c", 40)
	b := FleetBisect{File: "bisect-f.md", Summary: s, Problems: bad}
	if res, first := b.ShownResult(); res != FailsCheck || first != "" {
		t.Errorf("a summary that fails check shows %q, %q", res, first)
	}
	if sec := bisectSection([]FleetBisect{b}); strings.Contains(sec, "cccc") || strings.Contains(sec, "found") {
		t.Errorf("the bisect section shows a claimed result:\n%s", sec)
	}
	var st history.Step
	st.Last.SourceCommit, st.First.SourceCommit = strings.Repeat("a", 40), strings.Repeat("b", 40)
	f := &Fleet{Bisects: []FleetBisect{b}}
	if _, ok := f.SettledBy("f", "", st); ok {
		t.Error("a summary that fails check settles a step")
	}
	f.Bisects[0].Problems = nil
	if _, ok := f.SettledBy("f", "", st); !ok {
		t.Error("a summary that passes check settles no step")
	}
}

// The gather summary (a fleet pull request's body) shows no verdict of a
// record it refused: refused for failing check, its verdict is only what
// it claims.
func TestGatherSummaryShowsNoRefusedVerdict(t *testing.T) {
	rec := &schema.Record{Verdict: schema.Valid, Hardware: "h"}
	md := GatherMarkdown([]Gathered{
		{Source: "a/x.md", Action: GatherRefused, Why: []string{"check: Data: forged"}, Rec: rec},
		{Source: "b/y.md", Dest: "r/y.md", Action: GatherPlaced, Rec: rec},
	})
	if !strings.Contains(md, "| `x.md` | `h` | — | refused: check: Data: forged |") || !strings.Contains(md, "| `y.md` | `h` | VALID | placed |") {
		t.Errorf("gather summary:\n%s", md)
	}
}
