package review

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// A record's host history is held to the records it names that lie
// beside it: a forged baseline median (the warning "this host ran below
// its own history" made, or a real one hidden, with the analysis derived
// again so that the record is consistent in itself), a date, a record of
// another scenario or a later one fail check; the record as written
// passes, and so does one whose named records are not there.
func TestCheckHistoryAgainstTheRecordsBeside(t *testing.T) {
	const stem = "spec-draft-epyc-2026-12-06"
	src := filepath.Join("..", "docs", "benchmark_results", stem+".md")
	srcData := filepath.Join(filepath.Dir(src), "data", stem)
	for _, c := range []struct {
		what   string
		edit   func(h *schema.HostHistory)
		beside bool
		want   string
	}{
		{"as written", func(*schema.HostHistory) {}, true, ""},
		{"as written, alone", func(*schema.HostHistory) {}, false, ""},
		{"medians raised", func(h *schema.HostHistory) {
			for i := range h.Records {
				h.Records[i].Value = 400
			}
		}, true, "states spec-draft-epyc-2026-12-05-4's baseline median as 400; that record's is 202.19"},
		{"a date", func(h *schema.HostHistory) { h.Records[4].Date = "2026-11-01" }, true, "dates spec-draft-epyc-2026-12-04 2026-11-01; that record is of 2026-12-04"},
		{"another engine", func(h *schema.HostHistory) { h.Records[0].OtherEngine = true }, true, "ran another engine"},
		{"its own name", func(h *schema.HostHistory) { h.Records[0].Record = stem }, false, "not another record of feature spec-draft"},
		{"a record of another scenario", func(h *schema.HostHistory) { h.Records[0].Record = "spec-draft-epyc-2026-11-29" }, true, "is not an earlier record of this feature, hardware and scenario"},
		{"a name a later campaign took again", func(*schema.HostHistory) {}, true, ""},
		{"too few", func(h *schema.HostHistory) { h.Records = h.Records[:2] }, false, "names 2 records"},
		{"another arm", func(h *schema.HostHistory) { h.Arm = "draft" }, false, "compares arm draft's decode_tok_s, but the baseline is classic"},
	} {
		t.Run(c.what, func(t *testing.T) {
			rec, err := recorder.Load(src)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			if c.beside {
				for _, v := range rec.Method.History.Records {
					copyCommitted(t, dir, v.Record)
				}
				copyCommitted(t, dir, "spec-draft-epyc-2026-11-29")
			}
			if c.what == "a name a later campaign took again" {
				// The record named was removed, and a campaign after this
				// one took its name.
				b, err := os.ReadFile(src)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, rec.Method.History.Records[0].Record+".md"), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			c.edit(rec.Method.History)
			scen, err := os.ReadFile(filepath.Join(srcData, recorder.ScenarioFile))
			if err != nil {
				t.Fatal(err)
			}
			s, err := storedScenario(srcData, scen, rec.Scenario.Request.Prompt, rec.Scenario.Overrides)
			if err != nil {
				t.Fatal(err)
			}
			if rec.Analysis, rec.Verdict, err = analysis.Rederive(s.Policy, rec); err != nil {
				t.Fatal(err)
			}
			probs := fmt.Sprint(Check(writeCopy(t, dir, srcData, rec)))
			switch {
			case c.want == "" && probs != "[]":
				t.Errorf("check found %s", probs)
			case c.want != "" && !strings.Contains(probs, c.want):
				t.Errorf("check found %s\nwant a problem saying %q", probs, c.want)
			}
		})
	}
}

// The check cache keys a record by the records its history names: one
// checked while they were not there is checked again when they come.
func TestCheckCacheSeesTheHistorysRecordsCome(t *testing.T) {
	const stem = "spec-draft-epyc-2026-12-06"
	src := filepath.Join("..", "docs", "benchmark_results", stem+".md")
	rec, err := recorder.Load(src)
	if err != nil {
		t.Fatal(err)
	}
	rec.Method.History.Records[0].Date = "2026-11-01"
	dir := t.TempDir()
	p := writeCopy(t, dir, filepath.Join(filepath.Dir(src), "data", stem), rec)
	cache := &CheckCache{Dir: t.TempDir(), Identity: "test"}
	if r := CheckAll([]string{p}, cache)[0]; len(r.Problems) > 0 {
		t.Fatalf("alone: %v", r.Problems)
	}
	for _, v := range rec.Method.History.Records {
		copyCommitted(t, dir, v.Record)
	}
	r := CheckAll([]string{p}, cache)[0]
	if r.Cached || !strings.Contains(fmt.Sprint(r.Problems), "dates spec-draft-epyc-2026-12-05-4 2026-11-01") {
		t.Errorf("with its history's records beside it: cached %v, %v", r.Cached, r.Problems)
	}
	if r := CheckAll([]string{p}, cache)[0]; !r.Cached || len(r.Problems) != 1 {
		t.Errorf("again: cached %v, %v", r.Cached, r.Problems)
	}
}

// A record whose campaign a resume has taken up since it was written (the
// state lists a resumption the record does not; the resume's files are in
// its data folder) fails check, saying first that the resume has not
// finished and how to finish it.
func TestCheckSaysAResumeIsUnfinished(t *testing.T) {
	resumed := func(t *testing.T, path string) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var st map[string]any
		if err := json.Unmarshal(b, &st); err != nil {
			t.Fatal(err)
		}
		st["resumed"] = []string{"2026-12-04T10:00:00Z"}
		b, _ = json.Marshal(st)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		// The resume's first run's log (its engine's pid file is the
		// campaign's state, which check does not name).
		if err := os.WriteFile(filepath.Join(filepath.Dir(path), "logs", "run-099-a.log"), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	checkEdits(t, "identity-chaotic-xeon-2026-12-03", []recordEdit{
		{what: "as written", edit: func(*schema.Record) {}},
		{what: "a resume began since", edit: func(*schema.Record) {}, state: resumed,
			want: "Method: a resume of this campaign began at 2026-12-04T10:00:00Z, after this record was written, and has not written its record"},
	})
}
