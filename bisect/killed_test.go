package bisect

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/decodebench/decodebench/harness"
)

// threeCommits is a repository of three commits, c0 to c2.
func threeCommits(t *testing.T) string {
	t.Helper()
	repo := t.TempDir()
	gitT(t, repo, "init", "-q", "-b", "main")
	for i := range 3 {
		if err := os.WriteFile(filepath.Join(repo, "f"), []byte{byte('0' + i)}, 0o644); err != nil {
			t.Fatal(err)
		}
		gitT(t, repo, "add", "f")
		gitT(t, repo, "commit", "-q", "-m", fmt.Sprint("c", i))
	}
	return repo
}

// elapsedOf is the time spent that a data folder's state says.
func elapsedOf(t *testing.T, dataDir string) float64 {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dataDir, StateFile))
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Elapsed float64 `json:"elapsed"`
	}
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	return st.Elapsed
}

// A bisect killed during its first step (its state as the first save
// left it) resumes: the state counts the time since the bisect started,
// never since the zero time, which left every resume out of time at once.
func TestStateWrittenBeforeTheFirstStepCountsFromTheStart(t *testing.T) {
	repo := threeCommits(t)
	out, mark := t.TempDir(), filepath.Join(t.TempDir(), "building")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type result struct {
		res *Outcome
		err error
	}
	done := make(chan result, 1)
	go func() {
		res, err := Run(ctx, Config{Source: repo, Good: "HEAD~2", Bad: "HEAD", Build: "touch " + mark + "; sleep 30", Threshold: 0.05, MaxTime: time.Hour, Scenario: "llamacpp-bisect"},
			Options{Harness: harness.Options{OutDir: out, Hardware: "test", Date: "2026-01-02"}})
		done <- result{res, err}
	}()
	dataDir := filepath.Join(out, "data", "bisect-bisect-test-2026-01-02")
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(mark); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the first build did not start")
		}
	}
	// What a kill -9 now leaves: the state of the first save.
	if e := elapsedOf(t, dataDir); e < 0 || e > 60 {
		t.Errorf("the state written before the first step says %v s were spent", e)
	}
	cancel()
	r := <-done
	if r.err != nil || !r.res.Interrupted {
		t.Fatalf("interrupted bisect: %+v, %v", r.res, r.err)
	}
	p, err := PrepareResume(context.Background(), dataDir, "")
	if err != nil {
		t.Fatal(err)
	}
	if p.st.Elapsed > 60 || len(p.Notes) != 0 {
		t.Errorf("resume: %v s spent, notes %q", p.st.Elapsed, p.Notes)
	}
}

// A state that says more time was spent than a bisect spends (as one
// killed in its first step wrote it before the fix) is counted as its
// steps' time, and the plan says so: it no longer ends every resume out
// of time at once.
func TestResumeClampsAnImplausibleElapsed(t *testing.T) {
	repo := threeCommits(t)
	res, err := Run(context.Background(), Config{Source: repo, Good: "HEAD~2", Bad: "HEAD", Build: "false", Threshold: 0.05, MaxTime: time.Nanosecond, Scenario: "llamacpp-bisect"},
		Options{Harness: harness.Options{OutDir: t.TempDir(), Hardware: "test", Date: "2026-01-02"}})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(res.DataDir, StateFile)
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var st state
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	st.Elapsed = float64(time.Duration(1<<63-1)) / float64(time.Second)
	if err := writeState(res.DataDir, &st); err != nil {
		t.Fatal(err)
	}
	p, err := PrepareResume(context.Background(), res.DataDir, "")
	if err != nil {
		t.Fatal(err)
	}
	if p.st.Elapsed != 0 || len(p.Notes) != 1 {
		t.Fatalf("%v s spent, notes %q", p.st.Elapsed, p.Notes)
	}
	var plan bytes.Buffer
	p.WritePlan(&plan)
	if !strings.Contains(plan.String(), "note: the state says 9223372037 s were spent, more than a bisect spends") {
		t.Errorf("the plan does not say the time was corrected:\n%s", plan.String())
	}
	// With the time corrected the resume measures (its build fails: the
	// bad revision did not build), not out of time at once.
	r, err := p.Run(context.Background(), Options{MaxTime: 100 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Summary.Steps) != 1 || r.Summary.Outcome.Result == "out-of-time" {
		t.Errorf("outcome %s after %d step(s)", r.Summary.Outcome.Result, len(r.Summary.Steps))
	}
	if e := elapsedOf(t, res.DataDir); e > 60 {
		t.Errorf("the resume saved %v s spent", e)
	}
}

// The helper process of TestResumeAfterKill9: a bisect killed with
// SIGKILL during its first build.
func TestKilledBisectHelper(t *testing.T) {
	if os.Getenv("BISECT_KILL_HELPER") == "" {
		t.Skip("the helper of TestResumeAfterKill9")
	}
	_, _ = Run(context.Background(), Config{Source: os.Getenv("BISECT_REPO"), Good: "HEAD~2", Bad: "HEAD", Build: os.Getenv("BISECT_BUILD"), Threshold: 0.05, MaxTime: time.Hour,
		Scenario: "llamacpp-bisect", WorkDir: os.Getenv("BISECT_WORK")}, Options{Harness: harness.Options{OutDir: os.Getenv("BISECT_OUT"), Hardware: "test", Date: "2026-01-02"}})
}

// groupRuns reports whether a process of the group pgid runs (a zombie
// does not).
func groupRuns(pgid int) bool {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, f := range stats {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		_, rest, _ := strings.Cut(string(b), ") ")
		if fields := strings.Fields(rest); len(fields) > 2 && fields[0] != "Z" && fields[2] == strconv.Itoa(pgid) {
			return true
		}
	}
	return false
}

// A bisect killed with SIGKILL during a build leaves the build running,
// its worktree checked out and registered in the repository, and its work
// folder. The resume kills that build, removes the worktree (the
// repository no longer lists it) and the work folder it no longer uses,
// and its plan says so; the time spent is the dead run's, not 292 years.
func TestResumeAfterKill9(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc")
	}
	repo := threeCommits(t)
	dir := t.TempDir()
	out, work := filepath.Join(dir, "out"), filepath.Join(dir, workPrefix+"work")
	pidFile, stop := filepath.Join(dir, "build.pid"), filepath.Join(dir, "stop")
	// The sleep starts before the pid file says the build runs: killed
	// between the two, the shell would leave nothing to reap.
	build := "test -f " + stop + " && exit 3; sleep 300 & echo $$ > " + pidFile + ".tmp; mv " + pidFile + ".tmp " + pidFile + "; wait; exit 0"
	helper := exec.Command(os.Args[0], "-test.run=^TestKilledBisectHelper$")
	helper.Env = append(os.Environ(), "BISECT_KILL_HELPER=1", "BISECT_REPO="+repo, "BISECT_BUILD="+build, "BISECT_WORK="+work, "BISECT_OUT="+out)
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	var pid int
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if b, err := os.ReadFile(pidFile); err == nil {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
			break
		}
		if time.Now().After(deadline) {
			_ = helper.Process.Kill()
			t.Fatal("the helper's build did not start")
		}
	}
	_ = helper.Process.Kill()
	_ = helper.Wait()
	defer syscall.Kill(-pid, syscall.SIGKILL)
	// The build's shell may die with its bisect (the parent-death
	// signal); what it started lives on in its group.
	if !groupRuns(pid) {
		t.Fatal("nothing of the build outlived its bisect: nothing to reap")
	}
	if wt := gitT(t, repo, "worktree", "list", "--porcelain"); strings.Count(wt, "worktree ") != 2 {
		t.Fatalf("the killed bisect's worktree is not listed:\n%s", wt)
	}
	dataDir := filepath.Join(out, "data", "bisect-bisect-test-2026-01-02")
	p, err := PrepareResume(context.Background(), dataDir, "")
	if err != nil {
		t.Fatal(err)
	}
	var plan bytes.Buffer
	p.WritePlan(&plan)
	if p.ReuseWork || len(p.Leftovers) != 1 || !strings.Contains(plan.String(), "remove the worktree "+p.Leftovers[0]+" that a killed run left") {
		t.Errorf("reuse %v, leftovers %q, plan:\n%s", p.ReuseWork, p.Leftovers, plan.String())
	}
	if err := os.WriteFile(stop, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var progress bytes.Buffer
	r, err := p.Run(context.Background(), Options{Harness: harness.Options{Progress: &progress}})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Summary.Steps) != 1 || r.Summary.Outcome.Result == "out-of-time" {
		t.Errorf("outcome %s after %d step(s)", r.Summary.Outcome.Result, len(r.Summary.Steps))
	}
	for deadline := time.Now().Add(5 * time.Second); groupRuns(pid) && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
	}
	if groupRuns(pid) {
		t.Errorf("the dead bisect's build %d still runs; the resume said:\n%s", pid, progress.String())
	}
	if !strings.Contains(progress.String(), fmt.Sprintf("of pid %d's group (", pid)) {
		t.Errorf("the resume did not say it killed the build:\n%s", progress.String())
	}
	if wt := gitT(t, repo, "worktree", "list", "--porcelain"); strings.Count(wt, "worktree ") != 1 {
		t.Errorf("worktrees left registered:\n%s", wt)
	}
	if _, err := os.Stat(work); !os.IsNotExist(err) {
		t.Errorf("the killed run's work folder is left: %v", err)
	}
}
