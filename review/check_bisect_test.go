package review

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// The bisect fixture's records: two committed campaigns of one scenario
// in which the draft arm is significantly slower than the classic one,
// so each classifies as bad at a 5% threshold.
var fixtureRecords = []string{"spec-draft-epyc-2026-11-29-2", "spec-draft-epyc-2026-11-29-3"}

const fixtureStem = "bisect-spec-draft-epyc-2026-01-02"

// fixtureCommits: the good commit, then the range, oldest first.
var fixtureCommits = []string{strings.Repeat("a", 40), strings.Repeat("b", 40), strings.Repeat("c", 40)}

// bisectFixture writes into dir a bisect summary as bisect writes it:
// a range of two commits, both bad, so that the older is the first bad
// one (found in two steps, the bad revision first); the good commit's
// build and each step's with its log under builds/; each step's campaign
// a committed record copied with its data folder under steps/. It
// returns the summary's path and data; write renders the data again.
func bisectFixture(t *testing.T, dir string) (string, *schema.Bisect) {
	t.Helper()
	dataDir := filepath.Join(dir, "data", fixtureStem)
	for _, name := range fixtureRecords {
		copyTree(t, filepath.Join("..", "docs", "benchmark_results", name+".md"), filepath.Join(dataDir, "steps", name+".md"))
		copyTree(t, filepath.Join("..", "docs", "benchmark_results", "data", name), filepath.Join(dataDir, "steps", "data", name))
	}
	good, c1, c2 := fixtureCommits[0], fixtureCommits[1], fixtureCommits[2]
	const threshold = 0.05
	b := &schema.Bisect{Schema: schema.BisectSchema, Feature: "spec-draft", Hardware: "epyc", Date: "2026-01-02",
		Good: good, GoodRef: "v1", Bad: c2, BadRef: "main", Build: "make", Threshold: threshold,
		ScenarioPath: "spec-draft.yaml", Reference: "classic", Candidate: "draft", DataDir: "data/" + fixtureStem,
		ReferenceBuild: schema.BisectBuild{OK: true, Log: referenceLog(good), Seconds: 1},
		Commits:        []schema.BisectCommit{{SHA: c1, Subject: "one"}, {SHA: c2, Subject: "two"}}}
	for i, commit := range []string{c2, c1} {
		rel := b.DataDir + "/steps/" + fixtureRecords[i] + ".md"
		rec := inWorktrees(t, filepath.Join(dir, filepath.FromSlash(rel)), commit)
		b.ScenarioHash = rec.Scenario.Hash
		c := analysis.ClassifyStep(rec, b.Reference, b.Candidate, threshold)
		c.Record, c.Rounds = rel, 5
		b.Steps = append(b.Steps, schema.BisectStep{N: i + 1, Commit: commit, Build: schema.BisectBuild{OK: true, Log: stepLog(commit), Seconds: 1},
			Campaigns: []schema.BisectCampaign{c}, Class: c.Class, Seconds: 10})
	}
	for _, log := range []string{referenceLog(good), stepLog(c2), stepLog(c1)} {
		writeFile(t, filepath.Join(dataDir, filepath.FromSlash(log)), "built\n")
	}
	p := filepath.Join(dir, fixtureStem+".md")
	writeSummary(t, p, b)
	return p, b
}

// inWorktrees ties a committed record standing in for a step's campaign to
// the step's commit as a bisect's records are tied (without a source
// commit): each arm's command line names its worktree, the reference's
// <work>/reference, the draft's <work>/<its commit's 12 hex digits>. The
// record is rendered again, and returned.
func inWorktrees(t *testing.T, path, commit string) *schema.Record {
	t.Helper()
	rec, err := recorder.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(t.TempDir(), "decodebench-bisect-1")
	for i, a := range rec.Scenario.Arms {
		dir := filepath.Join(work, "reference")
		if a.Name == "draft" {
			dir = filepath.Join(work, commit[:12])
		}
		rec.Scenario.Arms[i].Command = append(slices.Clone(a.Command), "--log-file", filepath.Join(dir, "engine.log"))
	}
	launchAs(t, path, rec)
	if err := recorder.WriteFile(path, rec); err != nil {
		t.Fatal(err)
	}
	return rec
}

// writeSummary writes b's resume state (bisect.json, the summary its
// part of it) and renders b to p, as bisect saves them (renderSummary).
func writeSummary(t *testing.T, p string, b *schema.Bisect) {
	t.Helper()
	renderSummary(t, p, b)
	st, err := json.Marshal(map[string]any{"summary": b})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(filepath.Dir(p), filepath.FromSlash(b.DataDir), bisectStateFile), string(st))
}

// renderSummary renders b to p as bisect does, its outcome the one its
// steps give and its files every build log there is.
func renderSummary(t *testing.T, p string, b *schema.Bisect) {
	t.Helper()
	shas := []string{}
	for _, c := range b.Commits {
		shas = append(shas, c.SHA)
	}
	classes := map[string]schema.BisectClass{}
	for _, st := range b.Steps {
		classes[st.Commit] = st.Class
	}
	b.Outcome = analysis.ConcludeBisect(shas, classes)
	builds := filepath.Join(filepath.Dir(p), filepath.FromSlash(b.DataDir), buildsDir)
	files, err := recorder.HashDataDir(builds)
	if err != nil {
		t.Fatal(err)
	}
	b.Files = nil
	for _, f := range files {
		b.Files = append(b.Files, schema.FileSum{Path: buildsDir + "/" + f.Path, SHA256: f.SHA256})
	}
	if err := recorder.WriteBisectFile(p, b); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// copyTree copies a file, or a folder and everything in it.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		writeFile(t, filepath.Join(to, rel), string(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// check verifies every build log the summary names and every class it
// states: a summary written from a forged or damaged state (issue 31: the
// real first bad commit marked build-failed with a log that does not
// exist, so that the summary named the wrong candidates) fails check,
// each form of it re-rendered so that only the evidence can catch it.
func TestCheckBisectBuildsAndClasses(t *testing.T) {
	p, _ := bisectFixture(t, t.TempDir())
	if probs := Check(p); len(probs) != 0 {
		t.Fatalf("the fixture: %v", probs)
	}
	c1 := fixtureCommits[1]
	// in is a file of the summary's data folder.
	in := func(p string, b *schema.Bisect, rel ...string) string {
		return filepath.Join(append([]string{filepath.Dir(p), filepath.FromSlash(b.DataDir)}, rel...)...)
	}
	// failed marks step 2 (the first bad commit) build-failed with log,
	// its campaign and its record gone, as a forged state would have it.
	failed := func(p string, b *schema.Bisect, exit int, log string) {
		st := &b.Steps[1]
		st.Build = schema.BisectBuild{OK: false, ExitCode: exit, Log: log, Seconds: 1}
		st.Campaigns, st.Class = nil, schema.ClassBuildFailed
		_ = os.Remove(in(p, b, "steps", fixtureRecords[1]+".md"))
		_ = os.RemoveAll(in(p, b, "steps", "data", fixtureRecords[1]))
	}
	for _, c := range []struct {
		name, want string
		// forge changes the summary before it is written again (its
		// outcome and files as its steps and logs give them); after,
		// when not nil, changes the folder once it is.
		forge func(p string, b *schema.Bisect) (after func())
	}{
		{"the first bad commit build-failed, its log not there", "its log builds/" + c1[:12] + ".log is not one of the summary's files", func(p string, b *schema.Bisect) func() {
			failed(p, b, 2, stepLog(c1))
			_ = os.Remove(in(p, b, filepath.FromSlash(stepLog(c1))))
			return nil
		}},
		{"build-failed, its log named but not there", "its log builds/" + c1[:12] + ".log is not there", func(p string, b *schema.Bisect) func() {
			failed(p, b, 2, stepLog(c1))
			return func() { _ = os.Remove(in(p, b, filepath.FromSlash(stepLog(c1)))) }
		}},
		{"build-failed, no log named", "no log is named", func(p string, b *schema.Bisect) func() {
			failed(p, b, 2, "")
			return nil
		}},
		{"build-failed with another build's log", "not builds/" + c1[:12] + ".log", func(p string, b *schema.Bisect) func() {
			failed(p, b, 2, referenceLog(fixtureCommits[0]))
			return nil
		}},
		{"build-failed, yet exit 0", "it failed, yet exited 0", func(p string, b *schema.Bisect) func() {
			failed(p, b, 0, stepLog(c1))
			return nil
		}},
		{"a build that succeeded with exit 2", "it succeeded, yet exited 2", func(p string, b *schema.Bisect) func() {
			b.Steps[0].Build.ExitCode = 2
			return nil
		}},
		{"steps in an order the search does not take", "the search measures " + fixtureCommits[2][:12], func(p string, b *schema.Bisect) func() {
			b.Steps[0], b.Steps[1] = b.Steps[1], b.Steps[0]
			b.Steps[0].N, b.Steps[1].N = 1, 2
			return nil
		}},
		{"a step after the search ended", "the search had ended before this step", func(p string, b *schema.Bisect) func() {
			b.Steps = append(b.Steps, b.Steps[1])
			b.Steps[2].N = 3
			return nil
		}},
		{"a second campaign after a bad one", "only an undecided campaign is run again", func(p string, b *schema.Bisect) func() {
			c := b.Steps[1].Campaigns[0]
			c.Rounds = 10
			b.Steps[1].Campaigns = []schema.BisectCampaign{b.Steps[0].Campaigns[0], c}
			return nil
		}},
		{"a campaign's record linked by another too", "linked by an earlier campaign too", func(p string, b *schema.Bisect) func() {
			b.Steps[1].Campaigns[0].Record = b.Steps[0].Campaigns[0].Record
			return nil
		}},
		{"a campaign's record a hard link of another's", "linked by an earlier campaign too", func(p string, b *schema.Bisect) func() {
			other := in(p, b, "steps", fixtureRecords[1]+".md")
			_ = os.Remove(other)
			if err := os.Link(in(p, b, "steps", fixtureRecords[0]+".md"), other); err != nil {
				t.Fatal(err)
			}
			return nil
		}},
		{"a linked record that is a bisect summary", "is a bisect summary", func(p string, b *schema.Bisect) func() {
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, in(p, b, "steps", "summary.md"), string(src))
			b.Steps[1].Campaigns[0].Record = b.DataDir + "/steps/summary.md"
			return nil
		}},
		{"a data folder that is not the summary's", "the folder bisect writes beside the summary", func(p string, b *schema.Bisect) func() {
			old := in(p, b)
			b.DataDir = "data/other"
			if err := os.Rename(old, in(p, b)); err != nil {
				t.Fatal(err)
			}
			return nil
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, b := bisectFixture(t, t.TempDir())
			after := c.forge(p, b)
			writeSummary(t, p, b)
			if after != nil {
				after()
			}
			probs := fmt.Sprint(Check(p))
			if !strings.Contains(probs, c.want) {
				t.Errorf("check found %s\nwant a problem saying %q", probs, c.want)
			}
		})
	}
}

// TestCheckBisectThresholdBound: a genuine summary re-rendered at another
// threshold (its steps classified again at it, so the bad revision is
// found not slower) fails check, the resume state beside it saying the
// threshold the bisect ran at; and so does a summary whose state is gone.
func TestCheckBisectThresholdBound(t *testing.T) {
	p, b := bisectFixture(t, t.TempDir())
	b.Threshold = 0.9
	for i := range b.Steps {
		st := &b.Steps[i]
		rel := st.Campaigns[0].Record
		rec, err := recorder.ParseFile(filepath.Join(filepath.Dir(p), filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		c := analysis.ClassifyStep(rec, b.Reference, b.Candidate, b.Threshold)
		c.Record, c.Rounds = rel, st.Campaigns[0].Rounds
		st.Campaigns[0], st.Class = c, c.Class
	}
	b.Steps = b.Steps[:1] // the search stops: the bad revision is not slower by 90%
	dd := filepath.Join(filepath.Dir(p), filepath.FromSlash(b.DataDir))
	for _, rel := range []string{"steps/" + fixtureRecords[1] + ".md", "steps/data/" + fixtureRecords[1], stepLog(fixtureCommits[1])} {
		if err := os.RemoveAll(filepath.Join(dd, filepath.FromSlash(rel))); err != nil {
			t.Fatal(err)
		}
	}
	renderSummary(t, p, b)
	if b.Outcome.Result != schema.BadNotBad {
		t.Fatalf("the forgery concludes %s", b.Outcome.Result)
	}
	probs := fmt.Sprint(Check(p))
	if want := "disagree on what the bisect is"; !strings.Contains(probs, want) {
		t.Errorf("check found %s\nwant a problem saying %q", probs, want)
	}
	p, b = bisectFixture(t, t.TempDir())
	if err := os.Remove(filepath.Join(filepath.Dir(p), filepath.FromSlash(b.DataDir), bisectStateFile)); err != nil {
		t.Fatal(err)
	}
	if probs := fmt.Sprint(Check(p)); !strings.Contains(probs, "the bisect's state") {
		t.Errorf("a summary without its state: check found %s", probs)
	}
}

// TestCheckStepClassRestart: a campaign interrupted and not resumable (its
// rebuilt engine differs) stays linked, followed by a fresh campaign of
// its rounds; any other shape of campaigns around an interrupted one is a
// problem.
func TestCheckStepClassRestart(t *testing.T) {
	camp := func(rounds int, v schema.Verdict, c schema.BisectClass) schema.BisectCampaign {
		return schema.BisectCampaign{Rounds: rounds, Verdict: v, Class: c}
	}
	inc := func(r int) schema.BisectCampaign { return camp(r, schema.Incomplete, "") }
	good := func(r int) schema.BisectCampaign { return camp(r, schema.Valid, schema.ClassGood) }
	und := func(r int) schema.BisectCampaign { return camp(r, schema.Inconclusive, schema.ClassUndecided) }
	for _, c := range []struct {
		name    string
		cs      []schema.BisectCampaign
		class   schema.BisectClass
		pending bool
		want    string // "" for none
	}{
		{"interrupted, then a fresh campaign", []schema.BisectCampaign{inc(5), good(5)}, schema.ClassGood, false, ""},
		{"interrupted twice, then a fresh one", []schema.BisectCampaign{inc(5), inc(5), good(5)}, schema.ClassGood, false, ""},
		{"undecided, its second interrupted, then a fresh second", []schema.BisectCampaign{und(5), inc(10), good(10)}, schema.ClassGood, false, ""},
		{"interrupted, the step under way", []schema.BisectCampaign{inc(5)}, "", true, ""},
		{"interrupted, the step ended", []schema.BisectCampaign{inc(5)}, schema.ClassGood, false, "an interrupted campaign is resumed"},
		{"a fresh campaign of other rounds", []schema.BisectCampaign{inc(5), good(10)}, schema.ClassGood, false, "a fresh campaign in its place runs its 5"},
		{"undecided then not twice", []schema.BisectCampaign{und(5), inc(5), good(5)}, schema.ClassGood, false, "not twice the 5"},
		{"three measured", []schema.BisectCampaign{und(5), und(10), inc(20), good(20)}, schema.ClassGood, false, "3 campaigns: a commit is measured again once"},
		{"undecided after one measured, an interrupted before it", []schema.BisectCampaign{inc(5), und(5)}, schema.ClassUndecided, false, "undecided after one campaign"},
	} {
		st := schema.BisectStep{N: 1, Build: schema.BisectBuild{OK: true}, Campaigns: c.cs, Class: c.class}
		probs := checkStepClass("Step 1", st, c.pending)
		switch {
		case c.want == "" && len(probs) != 0:
			t.Errorf("%s: %v", c.name, probs)
		case c.want != "" && !strings.Contains(fmt.Sprint(probs), c.want):
			t.Errorf("%s: %v, want %q", c.name, probs, c.want)
		}
	}
}
