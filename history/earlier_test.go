package history_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/history"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/review"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

const layersStem = "history-layers-epyc-2026-12-02"

func stemOf(n int) string {
	if n == 1 {
		return layersStem
	}
	return layersStem + "-" + string(rune('0'+n%10))
}

// withHistory copies the real record n of testdata/layers, its data folder
// and the records before it into a folder, gives it the host history that
// history.Earlier finds there, analyses and renders it again as a campaign
// ending would, and returns its path and the record.
func withHistory(t *testing.T, recs []history.Record, n int) (string, *schema.Record) {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/layers")); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, stemOf(n)+".md")
	rec, err := recorder.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	rec.Method.History = history.HostHistory(rec, history.Earlier(recs, rec))
	dataDir, err := recorder.DataPath(path, rec)
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(dataDir, recorder.ScenarioFile))
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := scenarios.Parse(recorder.ScenarioFile, dataDir, src, scenarios.Options{Offline: true, PromptText: rec.Scenario.Request.Prompt, Set: rec.Scenario.Overrides})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Analysis, rec.Verdict, err = analysis.Record(s.Policy, rec.Runs, rec.Method, rec.Schema); err != nil {
		t.Fatal(err)
	}
	if err := recorder.WriteFile(path, rec); err != nil {
		t.Fatal(err)
	}
	return path, rec
}

func offHistory(rec *schema.Record) (schema.HostOffHistory, bool) {
	for _, w := range rec.Analysis.Warnings {
		if h, ok := w.(schema.HostOffHistory); ok {
			return h, true
		}
	}
	return schema.HostOffHistory{}, false
}

// On real campaigns (testdata/layers: five on the 8-layer model, then
// five on a 16-layer one, about half the decode rate), the host history
// of the first 16-layer campaign is the five before it, newest first; its
// baseline falls 43% below their band, and the record says so, naming the
// five. The last 8-layer campaign, against the four before it, is inside
// the band. Either record passes check with its history: check derives
// the warning again from the stored values, and an edited value fails it.
func TestHostHistoryOnRealCampaigns(t *testing.T) {
	recs, _ := layersHistory(t)
	path, rec := withHistory(t, recs, 6)
	h := rec.Method.History
	var names []string
	for _, v := range h.Records {
		names = append(names, v.Record)
	}
	if got, want := strings.Join(names, " "), strings.Join([]string{stemOf(5), stemOf(4), stemOf(3), stemOf(2), stemOf(1)}, " "); got != want {
		t.Fatalf("history %s, want %s", got, want)
	}
	w, ok := offHistory(rec)
	if !ok || !w.Worse || w.Change > -0.35 || w.Change < -0.5 || w.Records != 5 || w.OtherEngine != 0 || !strings.HasPrefix(w.Compared, stemOf(5)+", ") {
		t.Fatalf("warning %+v (found %v), want about -43%% against the five before", w, ok)
	}
	md, _ := os.ReadFile(path)
	for _, want := range []string{"> **Warning:** This host ran below its own history by 4", "- This host's own history: the baseline `classic`'s median `decode_tok_s` against its 5 earlier records"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("the record lacks %q", want)
		}
	}
	if probs := review.Check(path); len(probs) > 0 {
		t.Errorf("the record with its history fails check: %v", probs)
	}
	// A compared value edited in the data block: check derives another
	// band, and says the analysis differs.
	b := strings.Replace(string(md), `"value": `+jsonNum(h.Records[0].Value), `"value": 49.5`, 1)
	if b == string(md) {
		t.Fatal("the history's first value is not in the data block")
	}
	os.WriteFile(path, []byte(b), 0o644)
	if probs := review.Check(path); len(probs) == 0 {
		t.Error("an edited history passes check")
	}

	path, rec = withHistory(t, recs, 5)
	if len(rec.Method.History.Records) != 4 {
		t.Fatalf("the fifth campaign's history has %d records, want the four before it", len(rec.Method.History.Records))
	}
	if w, ok := offHistory(rec); ok {
		t.Errorf("the fifth 8-layer campaign is off its history: %+v", w)
	}
	if probs := review.Check(path); len(probs) > 0 {
		t.Errorf("fails check: %v", probs)
	}
}

// jsonNum is v as encoding/json writes it (no exponent at these sizes).
func jsonNum(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// Earlier takes only the records of the same feature, hardware and
// scenario, whose numbers count, started before the record: not a
// REJECTED or INCOMPLETE one, not another machine's, scenario's or
// feature's, not a later one, not the record itself.
func TestEarlierPicks(t *testing.T) {
	recs, _ := layersHistory(t)
	var six *schema.Record
	for _, r := range recs {
		if r.Stem == stemOf(6) {
			six = r.Rec
		}
	}
	var spoilt []history.Record
	for _, r := range recs {
		c := *r.Rec
		switch r.Stem {
		case stemOf(1):
			c.Verdict = schema.Rejected
		case stemOf(2):
			c.Hardware = "m5max"
		case stemOf(3):
			c.Scenario.Hash = "other"
		case stemOf(4):
			c.Feature = "other"
		case stemOf(5):
			c.Verdict = schema.Incomplete
		case stemOf(7):
			c.Method.Started = six.Method.Started.Add(-time.Second) // started just before: taken
		}
		spoilt = append(spoilt, history.Record{Stem: r.Stem, Seq: r.Seq, Rec: &c})
	}
	var got []string
	for _, r := range history.Earlier(spoilt, six) {
		got = append(got, r.Stem)
	}
	if strings.Join(got, " ") != stemOf(7) {
		t.Errorf("earlier records %v, want only %s", got, stemOf(7))
	}
}
