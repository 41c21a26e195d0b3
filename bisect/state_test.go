package bisect

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// stateStem is the data folder the test states belong to.
const stateStem = "bisect-x-test-2026-01-02"

// validState is a state as a bisect interrupted in its second step
// leaves it: one step done, one pending with an interrupted campaign.
func validState() *state {
	h := func(c byte) string { return strings.Repeat(string(c), 40) }
	return &state{
		Source: "/src/engine", ScenarioPath: "/home/u/bisect.yaml", WorkDir: "/tmp/decodebench-bisect-1", MaxSeconds: 3600, Elapsed: 12, BaseRounds: 5,
		Summary: schema.Bisect{
			Schema: schema.BisectSchema, Feature: "x", Hardware: "test", Date: "2026-01-02",
			Good: h('a'), GoodRef: "v1", Bad: h('d'), BadRef: "main", Build: "make", Threshold: 0.03,
			ScenarioPath: "/home/u/bisect.yaml", ScenarioHash: "00", Reference: "reference", Candidate: "candidate",
			ReferenceBuild: schema.BisectBuild{OK: true, Log: "builds/reference-aaaaaaaaaaaa.log"},
			Commits:        []schema.BisectCommit{{SHA: h('b')}, {SHA: h('c')}, {SHA: h('d')}},
			Steps: []schema.BisectStep{{N: 1, Commit: h('d'), Class: schema.ClassBad, Build: schema.BisectBuild{OK: true, Log: "builds/dddddddddddd.log"},
				Campaigns: []schema.BisectCampaign{{Record: "data/" + stateStem + "/steps/x-test-2026-01-02.md", Rounds: 5, Class: schema.ClassBad}}}},
			Pending: &schema.BisectStep{N: 2, Commit: h('c'), Build: schema.BisectBuild{OK: true, Log: "builds/cccccccccccc.log"},
				Campaigns: []schema.BisectCampaign{{Record: "data/" + stateStem + "/steps/x-test-2026-01-02-2.md", Rounds: 5, Verdict: schema.Incomplete}}},
			Files:   []schema.FileSum{{Path: "builds/cccccccccccc.log"}},
			DataDir: "data/" + stateStem,
		},
	}
}

func stateJSON(t testing.TB, st *state) []byte {
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A state its bisect could not have written is refused before a resume
// acts on any of it (issue 31 item 3): each value a resume joins into a
// path, runs, or counts on.
func TestStateRefusesWhatNoBisectWrites(t *testing.T) {
	if _, err := parseState(stateJSON(t, validState()), stateStem); err != nil {
		t.Fatalf("the valid state: %v", err)
	}
	for _, c := range []struct {
		name, want string
		edit       func(*state)
	}{
		{"a pending commit that walks out", "want a commit of the range", func(s *state) { s.Summary.Pending.Commit = "../../x" }},
		{"a short commit id", "want full commit ids", func(s *state) { s.Summary.Good = "aaaaaaaaaaaa" }},
		{"an upper-case commit id", "want full commit ids", func(s *state) { s.Summary.Bad = strings.ToUpper(s.Summary.Bad) }},
		{"a commit of the range that is no commit id", "of the range", func(s *state) { s.Summary.Commits[0].SHA = "HEAD~1" }},
		{"a pending commit outside the range", "want a commit of the range", func(s *state) { s.Summary.Pending.Commit = strings.Repeat("e", 40) }},
		{"a commit measured twice", "measured once", func(s *state) { s.Summary.Pending.Commit = s.Summary.Steps[0].Commit }},
		{"a range that does not end at bad", "does not end at the bad commit", func(s *state) { s.Summary.Commits = s.Summary.Commits[:2] }},
		{"a step record outside steps/", "not a record of the data folder's steps/", func(s *state) {
			s.Summary.Pending.Campaigns[0].Record = "data/" + stateStem + "/steps/../../../x.md"
		}},
		{"a step record in a folder of steps/", "not a record of the data folder's steps/", func(s *state) {
			s.Summary.Steps[0].Campaigns[0].Record = "data/" + stateStem + "/steps/data/x.md"
		}},
		{"a build log elsewhere", "build log", func(s *state) { s.Summary.Pending.Build.Log = "../../x.log" }},
		{"a reference log elsewhere", "build log", func(s *state) { s.Summary.ReferenceBuild.Log = "builds/../../x.log" }},
		{"a file outside builds/", "not a build log", func(s *state) { s.Summary.Files[0].Path = "steps/x.md" }},
		{"a relative scenario path", "scenario_path", func(s *state) { s.ScenarioPath = "../../bisect.yaml" }},
		{"a work folder with ..", "work_dir", func(s *state) { s.WorkDir = "/tmp/../home/u" }},
		{"a relative source", "source", func(s *state) { s.Source = "engine" }},
		{"rounds past the scenario's bound", "base_rounds", func(s *state) { s.BaseRounds = 1 << 30 }},
		{"a campaign of other rounds", "rounds", func(s *state) { s.Summary.Pending.Campaigns[0].Rounds = 1000 }},
		{"a hardware that does not name the folder", "do not name the data folder", func(s *state) { s.Summary.Hardware = "../x" }},
		{"a data folder not its own", "data_dir", func(s *state) { s.Summary.DataDir = "data/other" }},
		{"a threshold of nothing", "threshold", func(s *state) { s.Summary.Threshold = 0 }},
		{"no build command", "no build command", func(s *state) { s.Summary.Build = "" }},
		{"another schema", "schema", func(s *state) { s.Summary.Schema = "decodebench/bisect/v0" }},
	} {
		st := validState()
		c.edit(st)
		if _, err := parseState(stateJSON(t, st), stateStem); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
	if _, err := parseState(append(stateJSON(t, validState()), []byte("{}")...), stateStem); err == nil {
		t.Error("a second JSON value after the state was accepted")
	}
	b := strings.Replace(string(stateJSON(t, validState())), `"elapsed"`, `"build_dir": "/x", "elapsed"`, 1)
	if _, err := parseState([]byte(b), stateStem); err == nil {
		t.Error("a field the state does not have was accepted")
	}
}

// FuzzReadState: the state reader never panics, and a state it accepts
// gives a resume nothing to act on outside the bisect: every commit a
// full commit id of the range, every record a plain file of the data
// folder's steps/, every build log a file of builds/, every path absolute
// and clean.
func FuzzReadState(f *testing.F) {
	f.Add(stateJSON(f, validState()))
	st := validState()
	st.Summary.Pending = nil
	f.Add(stateJSON(f, st))
	st.ScenarioPath = "embedded:llamacpp-bisect.yaml"
	f.Add(stateJSON(f, st))
	f.Add([]byte(`{"source": "/x", "summary": {"pending": {"commit": "../../x"}}}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := parseState(b, stateStem)
		if err != nil {
			return
		}
		sum := &st.Summary
		for _, p := range []string{st.Source, st.WorkDir} {
			if !filepath.IsAbs(p) || filepath.Clean(p) != p {
				t.Fatalf("accepted path %q", p)
			}
		}
		inRange := map[string]bool{}
		for _, c := range sum.Commits {
			inRange[c.SHA] = true
		}
		steps := sum.Steps
		if sum.Pending != nil {
			steps = append(steps, *sum.Pending)
		}
		for _, s := range append(steps, schema.BisectStep{Commit: sum.Bad}) {
			if !fullHash.MatchString(s.Commit) || !inRange[s.Commit] {
				t.Fatalf("accepted commit %q", s.Commit)
			}
			if s.Build.Log != "" && filepath.Dir(s.Build.Log) != buildsDir {
				t.Fatalf("accepted build log %q", s.Build.Log)
			}
			for _, c := range s.Campaigns {
				rel := strings.TrimPrefix(c.Record, sum.DataDir+"/steps/")
				if rel == c.Record || strings.Contains(rel, "/") || strings.HasPrefix(rel, ".") || !strings.HasSuffix(rel, ".md") {
					t.Fatalf("accepted record %q", c.Record)
				}
			}
		}
		if sum.DataDir != "data/"+stateStem || !fullHash.MatchString(sum.Good) {
			t.Fatalf("accepted data_dir %q, good %q", sum.DataDir, sum.Good)
		}
	})
}
