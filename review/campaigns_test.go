package review

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/internal/committed"
	"github.com/decodebench/decodebench/recorder"
)

// genuine is the committed record the campaign tests copy: a real
// campaign of llama-server on the development VM.
const genuine = "spec-draft-epyc-2026-12-05"

// copyCommitted copies the committed record stem and its data folder
// into dir, and returns the record's path.
func copyCommitted(t *testing.T, dir, stem string) string {
	t.Helper()
	committed.CopyInto(t, dir, stem)
	return filepath.Join(dir, stem+".md")
}

// copyAs copies the record stem of dir as a record named as: with shared,
// the same bytes, naming stem's data folder; else dated date, with a data
// folder of its own (data/as), the record rendered again with decodebench's
// own code (recorder.WriteFile, every file's sha256 anew). respace
// rewrites its runs.jsonl with a space after each "{" first (the same
// runs, other bytes). The copy is what a forger makes of a genuine
// campaign: the same runs under another name.
func copyAs(t *testing.T, dir, stem, as, date string, shared, respace bool) string {
	t.Helper()
	path := filepath.Join(dir, as+".md")
	if shared {
		b, err := os.ReadFile(filepath.Join(dir, stem+".md"))
		if err == nil {
			err = os.WriteFile(path, b, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
		return path
	}
	rec, err := recorder.Load(filepath.Join(dir, stem+".md"))
	if err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "data", as)
	if err := os.CopyFS(data, os.DirFS(filepath.Join(dir, "data", stem))); err != nil {
		t.Fatal(err)
	}
	if respace {
		runs := filepath.Join(data, "runs.jsonl")
		old, err := os.ReadFile(runs)
		if err == nil {
			err = os.WriteFile(runs, []byte(strings.ReplaceAll(string(old), `{"`, `{ "`)), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	rec.Date, rec.DataDir = date, "data/"+as
	for i := range rec.Plots {
		rec.Plots[i] = strings.Replace(rec.Plots[i], "data/"+stem+"/", "data/"+as+"/", 1)
	}
	if rec.Files, err = recorder.HashDataDir(data); err != nil {
		t.Fatal(err)
	}
	if err := recorder.WriteFile(path, rec); err != nil {
		t.Fatal(err)
	}
	return path
}

// A record whose data folder is another record's (the same runs under a
// new name) fails check: the harness writes a record's runs into
// data/<its file name>, and no two records share them (nine such copies,
// re-dated, made history report a -20.6% step no campaign measured).
func TestCheckWantsTheRecordsOwnDataFolder(t *testing.T) {
	dir := t.TempDir()
	orig := copyCommitted(t, dir, genuine)
	if probs := Check(orig); len(probs) > 0 {
		t.Fatalf("the committed record fails check: %v", probs)
	}
	copied := copyAs(t, dir, genuine, genuine+"-9", "", true, false)
	probs := Check(copied)
	if len(probs) != 1 || !strings.Contains(probs[0].String(), "data folder data/"+genuine+" is not data/"+genuine+"-9") {
		t.Errorf("a record sharing another's data folder: %v", probs)
	}
	if probs := CheckAll([]string{copied}, &CheckCache{Dir: t.TempDir(), Identity: "test"})[0].Problems; len(probs) != 1 {
		t.Errorf("through the cache: %v", probs)
	}
}

// A campaign copied under another name with a data folder of its own
// passes check, but counts once in the series, the regimes and a history:
// the copy is left out, named with the record it copies, whether its
// runs.jsonl is the same file or the same runs re-spaced.
func TestOneCampaignCountsOnce(t *testing.T) {
	for _, respace := range []bool{false, true} {
		dir := t.TempDir()
		copyCommitted(t, dir, genuine)
		other := genuine + "-2"
		copyCommitted(t, dir, other)
		copied := copyAs(t, dir, genuine, "spec-draft-epyc-2026-12-01", "2026-12-01", false, respace)
		if probs := Check(copied); len(probs) > 0 {
			t.Fatalf("respace %v: the copy fails check, so this tests nothing: %v", respace, probs)
		}
		f, err := ReadFleet(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		var in []string
		for _, s := range f.Series {
			in = append(in, s.Records...)
		}
		if !slices.Contains(in, genuine) || !slices.Contains(in, other) || slices.Contains(in, "spec-draft-epyc-2026-12-01") {
			t.Errorf("respace %v: series hold %v", respace, in)
		}
		for _, r := range f.Records["spec-draft"] {
			want := ""
			if r.Stem == "spec-draft-epyc-2026-12-01" {
				want = genuine
			}
			if r.SameAs != want || r.Counts() != (want == "") {
				t.Errorf("respace %v: %s same as %q, want %q", respace, r.Stem, r.SameAs, want)
			}
		}
		recs, _, err := LoadHistory(dir)
		if err != nil {
			t.Fatal(err)
		}
		kept, dups := OnceEach(dir, recs)
		if len(kept) != 2 || len(dups) != 1 || dups[0].Stem != "spec-draft-epyc-2026-12-01" || dups[0].Of != genuine {
			t.Errorf("respace %v: kept %d, duplicates %+v", respace, len(kept), dups)
		}
	}
}

// diff --confirm refuses the first session's own runs, re-spaced (other
// bytes, so another sha256) under another name, as its second session:
// one campaign is one session, whatever the file's bytes.
func TestConfirmKnowsACampaignByItsRuns(t *testing.T) {
	dir := t.TempDir()
	orig := copyCommitted(t, dir, genuine)
	other := copyCommitted(t, dir, genuine+"-2")
	copied := copyAs(t, dir, genuine, genuine+"-9", "2026-12-05", false, true)
	load := func(p string) campaign {
		rec, err := recorder.Load(p)
		if err != nil {
			t.Fatal(err)
		}
		return campaign{path: p, rec: rec}
	}
	a, b, c := load(orig), load(copied), load(other)
	if a.rec.FileSum("runs.jsonl") == b.rec.FileSum("runs.jsonl") {
		t.Fatal("the copy's runs.jsonl is the same file")
	}
	if !sameCampaign(a, b) {
		t.Error("the same runs re-spaced are another campaign")
	}
	if sameCampaign(a, c) {
		t.Error("two genuine campaigns are one")
	}
}

// shiftedCopy copies the record stem of dir as a record named as, dated
// date, with every time of it moved by d (the campaign's start and end,
// each run's start in runs.jsonl), its logs byte for byte stem's, every
// file's sha256 anew and the record rendered again: a campaign re-dated.
func shiftedCopy(t *testing.T, dir, stem, as, date string, d time.Duration) string {
	t.Helper()
	rec, err := recorder.Load(filepath.Join(dir, stem+".md"))
	if err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "data", as)
	if err := os.CopyFS(data, os.DirFS(filepath.Join(dir, "data", stem))); err != nil {
		t.Fatal(err)
	}
	var runs bytes.Buffer
	enc := json.NewEncoder(&runs)
	for _, r := range rec.Runs {
		r.Start = r.Start.Add(d)
		if err := enc.Encode(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(data, recorder.RunsFile), runs.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	rec.Date, rec.DataDir = date, "data/"+as
	rec.Method.Started, rec.Method.Finished = rec.Method.Started.Add(d), rec.Method.Finished.Add(d)
	for i := range rec.Plots {
		rec.Plots[i] = strings.Replace(rec.Plots[i], "data/"+stem+"/", "data/"+as+"/", 1)
	}
	if rec.Files, err = recorder.HashDataDir(data); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, as+".md")
	if err := recorder.WriteFile(path, rec); err != nil {
		t.Fatal(err)
	}
	return path
}

// A campaign copied a day later, every time in its record and runs.jsonl
// shifted and its logs byte for byte the original's, is the original's
// campaign: history and the index count it once (a finished run's log in
// common), and check refuses it (its runs' times are not its logs').
func TestShiftedCampaignCountsOnce(t *testing.T) {
	dir := t.TempDir()
	copyCommitted(t, dir, genuine)
	copyCommitted(t, dir, genuine+"-2")
	copied := shiftedCopy(t, dir, genuine, "spec-draft-epyc-2026-12-06", "2026-12-06", 24*time.Hour)
	if probs := Check(copied); len(probs) == 0 || !strings.Contains(probs[0].String(), "the run's times are not its log's") {
		t.Errorf("the shifted copy: %v, want its runs' times refused", probs)
	}
	recs, _, err := LoadHistory(dir)
	if err != nil {
		t.Fatal(err)
	}
	kept, dups := OnceEach(dir, recs)
	if len(kept) != 2 || len(dups) != 1 || dups[0].Stem != "spec-draft-epyc-2026-12-06" || dups[0].Of != genuine {
		t.Errorf("kept %d, duplicates %+v", len(kept), dups)
	}
}

// The index's and the site's latest record of a row is one that counts: a
// campaign copied under a newer name passes check but is not shown as the
// row's latest in place of the record it copies.
func TestLatestIsNoCopy(t *testing.T) {
	dir := t.TempDir()
	copyCommitted(t, dir, genuine)
	copyAs(t, dir, genuine, "spec-draft-epyc-2026-12-09", "2026-12-09", false, true)
	f, err := ReadFleet(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range f.Rows() {
		if l := row.Latest(); l.Stem != genuine {
			t.Errorf("the row's latest record is %s (same as %q), want %s", l.Stem, l.SameAs, genuine)
		}
	}
}
