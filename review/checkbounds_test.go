package review

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// The reviewer tools finish in time and memory linear in what they are
// given, on records crafted to make them do otherwise (issue 31, item 1);
// the inputs are generated here (crafted_test.go), never committed.

// within runs f and fails the test when it has not returned after d (a
// run that would not end is left behind: the test has failed).
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s did not finish within %s", what, d)
	}
}

// 25 bisect summaries, each the record of the three campaigns of the one
// before (3^25 paths for a check that follows links), end at once in
// check and index: a summary linked as a campaign's record is refused,
// never followed.
func TestCheckNestedSummariesBounded(t *testing.T) {
	dir := t.TempDir()
	p := nestedSummaries(t, dir, 25, 3, 0)
	var probs []Problem
	within(t, 30*time.Second, "check of 25 nested summaries", func() { probs = Check(p) })
	all := fmt.Sprint(probs)
	if n := strings.Count(all, "is a bisect summary"); n != 1 {
		t.Errorf("%d refusals of the linked summary, want 1: %s", n, all)
	}
	if strings.Contains(all, "r.md: Step") || strings.Contains(all, "r.md: Summary") {
		t.Errorf("the linked summary was checked: %s", all)
	}
	within(t, 30*time.Second, "index of 25 nested summaries", func() {
		if _, err := Index(dir, nil); err != nil {
			t.Error(err)
		}
	})
	if b, err := os.ReadFile(filepath.Join(dir, IndexFile)); err != nil || !strings.Contains(string(b), "bisect-nested") {
		t.Errorf("the index does not list the summary (%v):\n%s", err, b)
	}
}

// A summary whose steps/ is a link back to its own folder, so that its
// campaigns' record is the summary itself one link deeper each time,
// ends at once: steps/ is opened never through a link.
func TestCheckLinkedFolderLoopBounded(t *testing.T) {
	dir := t.TempDir()
	p := loopSummary(t, dir, 3)
	var probs []Problem
	within(t, 30*time.Second, "check of a summary linked to itself", func() { probs = Check(p) })
	if all := fmt.Sprint(probs); !strings.Contains(all, "steps is not a folder (or a link)") {
		t.Errorf("check found %s, want the linked steps/ refused", all)
	}
	within(t, 30*time.Second, "index of a summary linked to itself", func() {
		if _, err := Index(dir, nil); err != nil {
			t.Error(err)
		}
	})
}

// One CheckAll checks each record bisect summaries link once, however
// many summaries link it: a summary named twice checks its two records
// twice, not four times.
func TestCheckAllLinkedRecordsOnce(t *testing.T) {
	dir := t.TempDir()
	p, _ := bisectFixture(t, dir)
	before := linkedChecked.Load()
	checked := CheckAll([]string{p, p}, nil)
	if n := linkedChecked.Load() - before; n != 2 {
		t.Errorf("%d linked records checked for two summaries linking the same two, want 2", n)
	}
	for _, c := range checked {
		if len(c.Problems) != 0 {
			t.Errorf("%s: %v", c.Path, c.Problems)
		}
	}
}

// A summary of many steps, every commit of its range skipped but the bad
// revision, checks in time linear in its size: each step's commit is the
// one the search picks, replayed step by step, not searched for again
// over the whole range at every step.
func TestCheckManySkippedStepsBounded(t *testing.T) {
	const n = 20000
	dir := t.TempDir()
	b := craftedSummary("data/bisect-skipped", "", 0, n-1)
	b.Steps = nil
	shas := make([]string, n)
	for i, c := range b.Commits {
		shas[i] = c.SHA
	}
	r := analysis.NewBisectReplay(shas)
	for {
		c, done := r.Next()
		if done {
			break
		}
		st := schema.BisectStep{N: len(b.Steps) + 1, Commit: c, Build: schema.BisectBuild{ExitCode: 2, Log: stepLog(c)}, Class: schema.ClassBuildFailed}
		if c == b.Bad {
			st.Build, st.Class = schema.BisectBuild{OK: true, Log: stepLog(c)}, schema.ClassBad
		}
		b.Steps = append(b.Steps, st)
		r.Measured(st.Commit, st.Class)
	}
	p := filepath.Join(dir, "bisect-skipped.md")
	if err := os.MkdirAll(filepath.Join(dir, "data", "bisect-skipped"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := recorder.WriteBisectFile(p, b); err != nil {
		t.Fatal(err)
	}
	var probs []Problem
	within(t, 30*time.Second, fmt.Sprintf("check of a summary of %d steps", len(b.Steps)), func() { probs = Check(p) })
	if all := fmt.Sprint(probs); strings.Contains(all, "the search measures") || strings.Contains(all, "the search had ended") {
		t.Errorf("the steps the search takes were not found to be: %.2000s", all)
	}
}
