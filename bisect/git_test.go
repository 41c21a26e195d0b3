package bisect

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/harness"
	"github.com/decodebench/decodebench/internal/execfile"
	"github.com/decodebench/decodebench/schema"
)

// hostileRepo makes a repository of four commits (only the first has the
// file good) whose configuration runs a script, which appends to marker,
// from everything a bisect's git could start: a post-checkout hook (in
// core.hooksPath and in .git/hooks), the hooks a checkout or an index
// change runs, fsmonitor, and a smudge, clean and process filter on every
// file.
func hostileRepo(t *testing.T) (repo, marker string) {
	t.Helper()
	dir := t.TempDir()
	repo, marker = filepath.Join(dir, "repo"), filepath.Join(dir, "marker")
	script := filepath.Join(dir, "evil.sh")
	if err := execfile.Write(script, []byte("#!/bin/sh\necho \"$0 $*\" >> '"+marker+"'\ncat\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	gitT(t, repo, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(repo, "good"), []byte("1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitT(t, repo, "add", "good")
	gitT(t, repo, "commit", "-q", "-m", "one")
	gitT(t, repo, "rm", "-q", "good")
	gitT(t, repo, "commit", "-q", "-m", "two")
	for i, name := range []string{"three", "four"} {
		if err := os.WriteFile(filepath.Join(repo, "f"), []byte{byte('0' + i)}, 0o644); err != nil {
			t.Fatal(err)
		}
		gitT(t, repo, "add", "f")
		gitT(t, repo, "commit", "-q", "-m", name)
	}
	// Configured only after the commits, so that setting up ran nothing.
	hooks := filepath.Join(dir, "hooks")
	if err := os.MkdirAll(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"post-checkout", "post-index-change", "reference-transaction"} {
		for _, d := range []string{hooks, filepath.Join(repo, ".git", "hooks")} {
			if err := os.Symlink(script, filepath.Join(d, h)); err != nil {
				t.Fatal(err)
			}
		}
	}
	gitT(t, repo, "config", "core.hooksPath", hooks)
	gitT(t, repo, "config", "core.fsmonitor", script)
	for _, k := range []string{"smudge", "clean"} {
		gitT(t, repo, "config", "filter.evil."+k, script)
	}
	gitT(t, repo, "config", "filter.evil.required", "true")
	gitT(t, repo, "config", "filter.lfs.process", script)
	gitT(t, repo, "config", "log.showSignature", "true")
	gitT(t, repo, "config", "gpg.program", script)
	if err := os.WriteFile(filepath.Join(repo, ".git", "info", "attributes"), []byte("* filter=evil\nf filter=lfs\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("setting up the repository already ran the script")
	}
	return repo, marker
}

// A bisect in a repository whose configuration names commands runs none
// of them (issue 31 item 4): not its hooks, fsmonitor or filters, through
// every git call a bisect makes (resolving the revisions, listing the
// range, adding, listing and removing worktrees), and its files are
// checked out as committed. Run through a whole bisect (every commit
// after the first fails to build) and a resume's checks.
func TestGitRunsNothingTheRepositoryNames(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	repo, marker := hostileRepo(t)
	out := t.TempDir()
	res, err := Run(context.Background(), Config{Source: repo, Good: "HEAD~3", Bad: "HEAD", Build: "test -f good", Threshold: 0.05, Scenario: "llamacpp-bisect"},
		Options{Harness: harness.Options{OutDir: out, Hardware: "test", Date: "2026-01-02"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Summary.Steps) == 0 || res.Summary.Steps[0].Class != schema.ClassBuildFailed {
		t.Fatalf("steps %+v", res.Summary.Steps)
	}
	// A worktree as a step checks it out, and the good commit's, which a
	// resume lists.
	dir := filepath.Join(t.TempDir(), "w")
	if err := addWorktree(context.Background(), repo, dir, res.Summary.Bad); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "f")); err != nil || string(b) != "1" {
		t.Errorf("the worktree's file reads %q (%v), want it as committed", b, err)
	}
	if !registeredWorktree(context.Background(), repo, dir, res.Summary.Bad) {
		t.Errorf("the worktree %s is not listed", dir)
	}
	if err := removeWorktree(context.Background(), repo, dir); err != nil {
		t.Fatal(err)
	}
	if _, err := PrepareResume(context.Background(), res.DataDir, ""); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(marker); err == nil {
		t.Errorf("the repository's configuration ran %d time(s):\n%s", strings.Count(string(b), "\n"), b)
	}
}

// A good revision on a release branch merged back into the bad one's
// line is refused, naming the commit of the line it branched off: the
// line's commits before the merge do not descend from it, and the search
// named the merge, taking the commit before it for good unmeasured. A
// good revision on the line gives every commit after it.
func TestRangeRefusesAGoodRevisionMergedIn(t *testing.T) {
	repo := t.TempDir()
	gitT(t, repo, "init", "-q", "-b", "main")
	commit := func(msg string) string {
		gitT(t, repo, "commit", "-q", "--allow-empty", "-m", msg)
		return gitT(t, repo, "rev-parse", "HEAD")
	}
	c1 := commit("c1")
	gitT(t, repo, "checkout", "-q", "-b", "release")
	r1 := commit("r1: v1.4")
	gitT(t, repo, "checkout", "-q", "main")
	c2, c3 := commit("c2"), commit("c3: the regression")
	gitT(t, repo, "merge", "-q", "--no-ff", "-m", "merge release", "release")
	merge := gitT(t, repo, "rev-parse", "HEAD")
	ctx := context.Background()
	_, err := rangeCommits(ctx, repo, r1, merge)
	if err == nil || !strings.Contains(err.Error(), "is not on the first-parent line") || !strings.Contains(err.Error(), c1[:12]) {
		t.Errorf("good on a branch merged back: %v", err)
	}
	cs, err := rangeCommits(ctx, repo, c1, merge)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cs {
		got = append(got, c.SHA)
	}
	if want := []string{c2, c3, merge}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("range from c1: %v, want %v", got, want)
	}
	if _, err := rangeCommits(ctx, repo, merge, c3); err == nil || !strings.Contains(err.Error(), "git merge-base GOOD BAD") {
		t.Errorf("good not an ancestor: %v", err)
	}
}
