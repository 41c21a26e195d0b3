package review

import (
	"fmt"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// A bisect whose scenario names no engine source ties each step's record
// to its commit by the worktrees it ran (<work>/<12 hex digits> and
// <work>/reference): genuine steps re-linked to other commits (the summary
// then names another first bad commit) fail check.
func TestCheckBisectWorktrees(t *testing.T) {
	c1 := fixtureCommits[1]
	for _, c := range []struct {
		name, want string
		forge      func(p string, b *schema.Bisect)
	}{
		{"nothing forged", "", func(string, *schema.Bisect) {}},
		{"the steps' records swapped between their commits", "ran nothing of the commit's worktree <work>/" + c1[:12], func(p string, b *schema.Bisect) {
			b.Steps[0].Campaigns, b.Steps[1].Campaigns = b.Steps[1].Campaigns, b.Steps[0].Campaigns
		}},
	} {
		p, b := bisectFixture(t, t.TempDir())
		c.forge(p, b)
		writeSummary(t, p, b)
		probs := fmt.Sprint(Check(p))
		switch {
		case c.want == "" && probs != "[]":
			t.Errorf("%s: %s", c.name, probs)
		case c.want != "" && !strings.Contains(probs, c.want):
			t.Errorf("%s: check found %s, want a problem saying %q", c.name, probs, c.want)
		}
	}
}

// A step good as the good commit's engine built again names two files,
// each its own worktree's (and so the binaries wrappers run): one file
// for both arms, or files of other folders, fail check.
func TestCheckSameBuildWorktrees(t *testing.T) {
	const commit = "0123456789abcdef0123456789abcdef01234567"
	ref, cand := "/t/w/reference/engine", "/t/w/0123456789ab/engine"
	for _, c := range []struct {
		name string
		sb   schema.BisectSameBuild
		want string
	}{
		{"its own worktrees", schema.BisectSameBuild{Reference: ref, Candidate: cand}, ""},
		{"wrappers of their own builds", schema.BisectSameBuild{Reference: ref, Candidate: cand, ReferenceBinary: "/t/w/reference/bin", CandidateBinary: "/t/w/0123456789ab/bin"}, ""},
		{"one file", schema.BisectSameBuild{Reference: "/t/w/build/engine", Candidate: "/t/w/build/engine"}, "both arms ran one file"},
		{"one file in the reference", schema.BisectSameBuild{Reference: ref, Candidate: ref}, "both arms ran one file"},
		{"another commit's worktree", schema.BisectSameBuild{Reference: ref, Candidate: "/t/w/ffffffffffff/engine"}, "not each its own worktree's build"},
		{"two work folders", schema.BisectSameBuild{Reference: "/t/v/reference/engine", Candidate: cand}, "not each its own worktree's build"},
		{"wrappers of one binary", schema.BisectSameBuild{Reference: ref, Candidate: cand, ReferenceBinary: "/usr/bin/awk", CandidateBinary: "/usr/bin/awk"}, "both arms ran one file"},
		{"wrappers of a binary outside", schema.BisectSameBuild{Reference: ref, Candidate: cand, ReferenceBinary: "/usr/bin/awk", CandidateBinary: "/usr/local/bin/awk"}, "not each its own worktree's build"},
		{"one wrapper's binary", schema.BisectSameBuild{Reference: ref, Candidate: cand, ReferenceBinary: "/t/w/reference/bin"}, "names the binary one arm's wrapper runs"},
	} {
		c.sb.SHA256 = strings.Repeat("a", 64)
		st := schema.BisectStep{N: 1, Commit: commit, Build: schema.BisectBuild{OK: true, Log: stepLog(commit)}, SameBuild: &c.sb, Class: schema.ClassGood}
		probs := fmt.Sprint(checkStepClass("Step 1", st, false))
		switch {
		case c.want == "" && probs != "[]":
			t.Errorf("%s: %s", c.name, probs)
		case c.want != "" && !strings.Contains(probs, c.want):
			t.Errorf("%s: %s, want a problem saying %q", c.name, probs, c.want)
		}
	}
}
