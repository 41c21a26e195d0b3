package bisect

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/harness"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/review"
	"github.com/decodebench/decodebench/schema"
)

func gitT(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, b)
	}
	return strings.TrimSpace(string(b))
}

// A commit that does not build is skipped, with its exit status and the
// log of its build, and no campaign runs; its worktree is removed and the
// user's checkout is untouched. The summary says so.
func TestStepBuildFailureSkips(t *testing.T) {
	repo := t.TempDir()
	gitT(t, repo, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(repo, "f"), []byte("1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitT(t, repo, "add", "f")
	gitT(t, repo, "commit", "-q", "-m", "one")
	sha := gitT(t, repo, "rev-parse", "HEAD")

	out := t.TempDir()
	dataDir := filepath.Join(out, "data", "bisect-x-test-2026-01-02")
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		t.Fatal(err)
	}
	st := &state{Source: repo, WorkDir: t.TempDir(), BaseRounds: 5, Summary: schema.Bisect{
		Schema: schema.BisectSchema, Feature: "x", Hardware: "test", Date: "2026-01-02", Good: sha, Bad: sha,
		Threshold: 0.03,
		Commits:   []schema.BisectCommit{{SHA: sha, Subject: "one"}}, DataDir: "data/bisect-x-test-2026-01-02"}}
	b := &bisector{st: st, dataDir: dataDir, sumPath: filepath.Join(out, "bisect-x-test-2026-01-02.md")}
	// A secret in the build command is neither stored nor logged.
	b.setBuild(shipped(t), `API_TOKEN=s3cr3t-value sh -c 'echo compiling with $API_TOKEN; echo "syntax error" >&2; exit 3'`)
	step := schema.BisectStep{N: 1, Commit: sha}
	if err := b.step(context.Background(), &step); err != nil {
		t.Fatal(err)
	}
	if step.Class != schema.ClassBuildFailed || step.Build.OK || step.Build.ExitCode != 3 || len(step.Campaigns) != 0 {
		t.Fatalf("step %+v, want build-failed with exit 3 and no campaign", step)
	}
	log, err := os.ReadFile(filepath.Join(dataDir, filepath.FromSlash(step.Build.Log)))
	if err != nil || string(log) != "compiling with [redacted]\nsyntax error\n" {
		t.Errorf("build log %q (%v)", log, err)
	}
	if wt := gitT(t, repo, "worktree", "list", "--porcelain"); strings.Count(wt, "worktree ") != 1 {
		t.Errorf("the step's worktree was left behind:\n%s", wt)
	}
	if s := gitT(t, repo, "status", "--porcelain"); s != "" {
		t.Errorf("the checkout changed: %s", s)
	}
	st.Summary.Steps = append(st.Summary.Steps, step)
	if err := b.save(); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(b.sumPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "failed (exit 3), log `builds/"+sha[:12]+".log`") || !strings.Contains(string(src), "| build-failed |") || strings.Contains(string(src), "s3cr3t") {
		t.Errorf("the summary does not say the build failed:\n%s", src)
	}
	got, err := recorder.ParseBisect(src)
	if err != nil {
		t.Fatal(err)
	}
	if got.Outcome.Result != schema.BadBuildFailed || len(got.Files) != 1 || got.Files[0].Path != "builds/"+sha[:12]+".log" {
		t.Errorf("outcome %s, files %v", got.Outcome.Result, got.Files)
	}
	// The bad revision did not build: it was never measured, and the
	// summary does not say it is not slower.
	if !strings.Contains(string(src), "did not build (its step's build log says why): it was not measured") || strings.Contains(string(src), "no regression") {
		t.Errorf("the summary does not say the bad revision did not build:\n%s", src)
	}
	if state, _ := os.ReadFile(filepath.Join(dataDir, StateFile)); strings.Contains(string(state), "s3cr3t") || !strings.Contains(string(state), "API_TOKEN=[redacted]") {
		t.Errorf("the state holds the secret, or not the masked command:\n%s", state)
	}
	for _, p := range review.Check(b.sumPath) {
		t.Errorf("check: %s", p)
	}
	// A summary written before bad-did-not-build existed says
	// bad-not-slower for it: it still passes check, as it was written.
	legacy := st.Summary
	legacy.Outcome.Result = schema.BadNotBad
	var old bytes.Buffer
	if err := recorder.BisectMarkdown(&old, &legacy); err != nil {
		t.Fatal(err)
	}
	legacyState := *st
	legacyState.Summary = legacy
	if err := writeState(dataDir, &legacyState); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b.sumPath, old.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range review.Check(b.sumPath) {
		t.Errorf("check of a summary saying bad-not-slower for a bad revision that did not build, as they were written: %s", p)
	}
	// The log edited afterwards, and a class the build does not give:
	// check finds both.
	if err := os.WriteFile(filepath.Join(dataDir, filepath.FromSlash(step.Build.Log)), []byte("ok\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st.Summary.Steps[0].Class = schema.ClassBad
	var md bytes.Buffer
	if err := recorder.BisectMarkdown(&md, &st.Summary); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b.sumPath, md.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	probs := fmt.Sprint(review.Check(b.sumPath))
	for _, want := range []string{"changed after the summary was written", "the build failed, so the commit is build-failed", "outcome bad-did-not-build"} {
		if !strings.Contains(probs, want) {
			t.Errorf("check found %s, want a problem saying %q", probs, want)
		}
	}
}

// Each arm must have run its own worktree's build: a scenario whose
// baseline runs ${CANDIDATE_DIR} (or whose builds come from other
// commits) stops the bisect rather than bisecting the wrong way round.
func TestVerifyBuilds(t *testing.T) {
	b := &bisector{st: &state{Summary: schema.Bisect{Reference: "ref", Candidate: "cand", Good: "good"}}}
	rec := func(refPath, refSrc, candPath, candSrc string) *schema.Record {
		return &schema.Record{Engines: []schema.ArmsEngine{
			{Arms: []string{"ref"}, EngineInfo: schema.EngineInfo{Path: refPath, SourceCommit: refSrc}},
			{Arms: []string{"cand"}, EngineInfo: schema.EngineInfo{Path: candPath, SourceCommit: candSrc}}}}
	}
	for _, c := range []struct {
		rec  *schema.Record
		fail string
	}{
		{rec("/w/reference/engine", "good", "/w/abc/engine", "abc"), ""},
		{rec("/w/reference/engine", "", "/w/abc/engine", ""), ""},
		{rec("/w/abc/engine", "", "/w/reference/engine", ""), "a build of the other worktree"},
		{rec("/w/reference/engine", "good", "/w/abc/engine", "good"), "source is at good"},
		{rec("/w/reference/engine", "abc", "/w/abc/engine", "abc"), "source is at abc"},
	} {
		err := b.verifyBuilds(c.rec, "/w/abc", "/w/reference", "abc")
		switch {
		case c.fail == "" && err != nil:
			t.Errorf("%+v: %v", c.rec.Engines, err)
		case c.fail != "" && (err == nil || !strings.Contains(err.Error(), c.fail)):
			t.Errorf("%+v: %v, want an error saying %q", c.rec.Engines, err, c.fail)
		}
	}
}

// --max-time reached before a step: the bisect ends out of time, saying
// the first bad commit is among the whole range, in a summary check
// passes; its worktrees are gone and the checkout untouched.
func TestOutOfTime(t *testing.T) {
	repo := t.TempDir()
	gitT(t, repo, "init", "-q", "-b", "main")
	for i := range 3 {
		if err := os.WriteFile(filepath.Join(repo, "f"), []byte{byte('0' + i)}, 0o644); err != nil {
			t.Fatal(err)
		}
		gitT(t, repo, "add", "f")
		gitT(t, repo, "commit", "-q", "-m", fmt.Sprint("c", i))
	}
	out := t.TempDir()
	res, err := Run(context.Background(), Config{Source: repo, Good: "HEAD~2", Bad: "HEAD", Build: "true", Threshold: 0.05, MaxTime: time.Nanosecond, Scenario: "llamacpp-bisect"},
		Options{Harness: harness.Options{OutDir: out, Hardware: "test", Date: "2026-01-02"}})
	if err != nil {
		t.Fatal(err)
	}
	o := res.Summary.Outcome
	if o.Result != schema.OutOfTime || len(o.Among) != 2 || len(res.Summary.Steps) != 0 || res.Interrupted {
		t.Errorf("outcome %+v after %d steps", o, len(res.Summary.Steps))
	}
	if res.Path != filepath.Join(out, "bisect-bisect-test-2026-01-02.md") {
		t.Errorf("summary at %s", res.Path)
	}
	for _, p := range review.Check(res.Path) {
		t.Errorf("check: %s", p)
	}
	if wt := gitT(t, repo, "worktree", "list", "--porcelain"); strings.Count(wt, "worktree ") != 1 {
		t.Errorf("worktrees left behind:\n%s", wt)
	}
	if s := gitT(t, repo, "status", "--porcelain"); s != "" {
		t.Errorf("the checkout changed: %s", s)
	}
}

// check refuses every form of a forged or damaged bisect summary, each
// re-rendered so that only the evidence can catch it (but the hand edit).
func TestCheckCatchesForgedSummaries(t *testing.T) {
	repo := t.TempDir()
	gitT(t, repo, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(repo, "f"), []byte("1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitT(t, repo, "add", "f")
	gitT(t, repo, "commit", "-q", "-m", "one")
	sha := gitT(t, repo, "rev-parse", "HEAD")
	fresh := func() (*bisector, string) {
		out := t.TempDir()
		dataDir := filepath.Join(out, "data", "bisect-x-test-2026-01-02")
		if err := os.MkdirAll(dataDir, 0o755); err != nil {
			t.Fatal(err)
		}
		st := &state{Source: repo, WorkDir: t.TempDir(), BaseRounds: 5, Summary: schema.Bisect{
			Schema: schema.BisectSchema, Feature: "x", Hardware: "test", Date: "2026-01-02", Good: sha, Bad: sha, Threshold: 0.03,
			Commits: []schema.BisectCommit{{SHA: sha, Subject: "one"}}, DataDir: "data/bisect-x-test-2026-01-02"}}
		b := &bisector{st: st, dataDir: dataDir, sumPath: filepath.Join(out, "bisect-x-test-2026-01-02.md")}
		b.setBuild(shipped(t), "exit 3")
		step := schema.BisectStep{N: 1, Commit: sha}
		if err := b.step(context.Background(), &step); err != nil {
			t.Fatal(err)
		}
		st.Summary.Steps = append(st.Summary.Steps, step)
		if err := b.save(); err != nil {
			t.Fatal(err)
		}
		if probs := review.Check(b.sumPath); len(probs) > 0 {
			t.Fatalf("the unforged summary: %v", probs)
		}
		return b, dataDir
	}
	rerender := func(b *bisector) {
		var md bytes.Buffer
		if err := recorder.BisectMarkdown(&md, &b.st.Summary); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(b.sumPath, md.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name, want string
		forge      func(b *bisector, dataDir string)
	}{
		{"a file the summary does not name", "does not name it", func(b *bisector, d string) {
			_ = os.WriteFile(filepath.Join(d, "steps.md"), []byte("x"), 0o644)
		}},
		{"steps renumbered", "numbered 2", func(b *bisector, d string) { b.st.Summary.Steps[0].N = 2; rerender(b) }},
		{"a commit from outside the range", "not in the range", func(b *bisector, d string) {
			b.st.Summary.Steps[0].Commit = strings.Repeat("f", 40)
			rerender(b)
		}},
		{"a campaign linked outside steps/", "not a record of the data folder's steps/", func(b *bisector, d string) {
			b.st.Summary.Steps[0].Campaigns = []schema.BisectCampaign{{Record: "../elsewhere.md", Class: schema.ClassBad}}
			rerender(b)
		}},
		{"a linked record that is not there", "no such file", func(b *bisector, d string) {
			b.st.Summary.Steps[0].Build.OK = true
			b.st.Summary.Steps[0].Campaigns = []schema.BisectCampaign{{Record: "data/bisect-x-test-2026-01-02/steps/r.md", Class: schema.ClassBuildFailed}}
			rerender(b)
		}},
		{"an outcome the steps do not give", "the steps' classes give", func(b *bisector, d string) {
			b.st.Summary.Outcome = schema.BisectOutcome{Result: schema.FoundFirstBad, FirstBad: sha, Among: []string{sha}}
			rerender(b)
		}},
		{"a data folder outside", "plain relative path", func(b *bisector, d string) { b.st.Summary.DataDir = "../x"; rerender(b) }},
		{"the Markdown edited by hand", "differs from what its data block renders", func(b *bisector, d string) {
			src, _ := os.ReadFile(b.sumPath)
			_ = os.WriteFile(b.sumPath, bytes.Replace(src, []byte("build-failed"), []byte("good"), 1), 0o644)
		}},
	} {
		b, dataDir := fresh()
		c.forge(b, dataDir)
		if probs := fmt.Sprint(review.Check(b.sumPath)); !strings.Contains(probs, c.want) {
			t.Errorf("%s: check found %s, want a problem saying %q", c.name, probs, c.want)
		}
	}
}

// An interrupted campaign whose resume was refused (the rebuilt engine is
// another binary) stays linked and does not count: the step goes on with
// a fresh campaign of the same rounds, doubles the rounds after one
// finished undecided campaign, and is decided after two.
func TestStepCountsOnlyFinishedCampaigns(t *testing.T) {
	inc := func(rounds int) schema.BisectCampaign {
		return schema.BisectCampaign{Record: "r", Rounds: rounds, Verdict: schema.Incomplete, Class: schema.ClassUndecided}
	}
	fin := func(rounds int, c schema.BisectClass) schema.BisectCampaign {
		return schema.BisectCampaign{Record: "r", Rounds: rounds, Verdict: schema.Valid, Class: c}
	}
	built := schema.BisectBuild{OK: true, Log: "builds/x.log"}
	for _, c := range []struct {
		name      string
		step      schema.BisectStep
		class     schema.BisectClass
		rounds    int
		resumeRec bool
	}{
		{"nothing run yet", schema.BisectStep{}, "", 5, false},
		{"its build failed", schema.BisectStep{Build: schema.BisectBuild{Log: "builds/x.log", ExitCode: 2}}, schema.ClassBuildFailed, 0, false},
		{"interrupted", schema.BisectStep{Build: built, Campaigns: []schema.BisectCampaign{inc(5)}}, "", 5, true},
		{"decided", schema.BisectStep{Build: built, Campaigns: []schema.BisectCampaign{fin(5, schema.ClassBad)}}, schema.ClassBad, 0, false},
		{"undecided once", schema.BisectStep{Build: built, Campaigns: []schema.BisectCampaign{fin(5, schema.ClassUndecided)}}, "", 10, false},
		{"undecided twice", schema.BisectStep{Build: built, Campaigns: []schema.BisectCampaign{fin(5, schema.ClassUndecided), fin(10, schema.ClassUndecided)}}, schema.ClassUndecided, 0, false},
		{"an abandoned campaign, then undecided", schema.BisectStep{Build: built, Campaigns: []schema.BisectCampaign{inc(5), fin(5, schema.ClassUndecided)}}, "", 10, false},
		{"an abandoned campaign, then undecided twice", schema.BisectStep{Build: built, Campaigns: []schema.BisectCampaign{inc(5), fin(5, schema.ClassUndecided), fin(10, schema.ClassUndecided)}}, schema.ClassUndecided, 0, false},
		{"the doubled campaign interrupted", schema.BisectStep{Build: built, Campaigns: []schema.BisectCampaign{fin(5, schema.ClassUndecided), inc(10)}}, "", 10, true},
	} {
		class, ok := settled(&c.step)
		if class != c.class || ok != (c.class != "") {
			t.Errorf("%s: settled = %s %v, want %s", c.name, class, ok, c.class)
		}
		if ok {
			continue
		}
		rounds, resume := nextCampaign(&c.step, 5)
		if rounds != c.rounds || (resume != "") != c.resumeRec {
			t.Errorf("%s: next campaign %d rounds, resuming %q; want %d, resuming %v", c.name, rounds, resume, c.rounds, c.resumeRec)
		}
	}
}
