package bisect

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
