package review

import (
	"path/filepath"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// A fleet is what the index shows: one row per feature and hardware,
// newest first, the steps of its series, and the bisect summary that
// searched a step's range (good: the commit before it, bad: the one
// after, either written short) on its hardware, or on any when the
// summary names none; never one of another feature, hardware or range.
func TestFleetRowsStepsAndTheBisectThatSettledOne(t *testing.T) {
	const n = 24
	dir, paths := plantedStep(t, n, 1, 0.95)
	f, err := ReadFleet(dir, &CheckCache{Dir: t.TempDir(), Identity: "test"})
	if err != nil {
		t.Fatal(err)
	}
	rows := f.Rows()
	if len(rows) != 1 || len(rows[0].Records) != n || rows[0].WithProblems != 0 {
		t.Fatalf("rows: %+v", rows)
	}
	if got := rows[0].Latest().File; got != filepath.Base(paths[n-1]) {
		t.Errorf("latest %s, want %s", got, filepath.Base(paths[n-1]))
	}
	steps := f.Steps("spec-draft", rows[0].Hardware)
	if len(steps) == 0 {
		t.Fatal("no step found")
	}
	st := steps[0].Step
	good, bad := st.Last.SourceCommit, st.First.SourceCommit
	summary := func(feature, hw, g, b string) FleetBisect {
		return FleetBisect{File: "bisect.md", Summary: &schema.Bisect{Feature: feature, Hardware: hw, Good: g, Bad: b}}
	}
	for _, c := range []struct {
		name string
		b    FleetBisect
		want bool
	}{
		{"same range", summary("spec-draft", rows[0].Hardware, good, bad), true},
		{"short commits, no hardware", summary("spec-draft", "", good[:7], bad[:9]), true},
		{"too short", summary("spec-draft", "", good[:6], bad[:6]), false},
		{"other feature", summary("other", rows[0].Hardware, good, bad), false},
		{"other hardware", summary("spec-draft", "xeon9", good, bad), false},
		{"reversed", summary("spec-draft", rows[0].Hardware, bad, good), false},
	} {
		f.Bisects = []FleetBisect{c.b}
		if _, ok := f.SettledBy("spec-draft", rows[0].Hardware, st); ok != c.want {
			t.Errorf("%s: settled %v, want %v", c.name, ok, c.want)
		}
	}
}
