package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/review"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// decodebench runs this test binary as the decodebench command (the way
// the scripts do, TestMain) and returns what it printed and its exit
// status.
func decodebench(t *testing.T, args ...string) ([]byte, int) {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "decodebench")
	if err := os.Symlink(os.Args[0], bin); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if stderr.Len() > 0 {
		t.Logf("decodebench %s: %s", strings.Join(args, " "), stderr.String())
	}
	return out, code
}

var (
	historyIsland = regexp.MustCompile(`(?s)<script type="application/json" id="history-data">(.*?)</script>`)
	plotIsland    = regexp.MustCompile(`(?s)<script type="application/json" id="plot-data">(.*?)</script>`)
	headlineCell  = regexp.MustCompile(`(?s)<td class="headline" data-record="([^"]*)">(.*?)</td>`)
	ratioSpan     = regexp.MustCompile(`<span class="ratio" data-arm="([^"]*)" data-ratio="([^"]*)"(?: data-lo="([^"]*)" data-hi="([^"]*)")?><code>[^<]*</code> ([^<]*)</span>`)
	verdictCell   = regexp.MustCompile(`(?s)<a href="[^"]*">([^<]*)</a>(?: [0-9-]+)?</td><td><span class="verdict [a-z-]+"><span class="mark" aria-hidden="true"></span>([A-Z]+)</span>`)
)

// Same data, same answers: every number the site shows for the committed
// records, and for ten real records with a step in them, is what
// `history --json` and `check` give. Each feature page embeds its series
// byte for byte as history --json prints them (compacted), and its plots
// draw every point of them once; every headline the pages show (the top
// page's, the feature pages', the lists') has the ratios and intervals of
// a fresh analysis of the record's runs under its stored scenario, as
// check derives it, and the verdict it gives; and check passes every
// record.
func TestSiteShowsWhatHistoryAndCheckGive(t *testing.T) {
	for _, dir := range []string{"../../docs/benchmark_results", "../../history/testdata/layers"} {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "site")
			if msg, code := decodebench(t, "site", "--no-cache", "--out", out, dir); code != 0 {
				t.Fatalf("site exited %d: %s", code, msg)
			}
			recs, bad, err := review.LoadHistory(dir)
			if err != nil || len(bad) > 0 {
				t.Fatal(err, bad)
			}
			var paths []string
			features := map[string]bool{}
			for _, r := range recs {
				paths = append(paths, filepath.Join(dir, r.Stem+".md"))
				features[r.Rec.Feature] = true
			}
			if msg, code := decodebench(t, append([]string{"check", "--no-cache"}, paths...)...); code != 0 {
				t.Fatalf("check exited %d: %s", code, msg)
			}
			steps := 0
			for f := range features {
				steps += sameHistory(t, dir, out, f)
			}
			if filepath.Base(dir) == "layers" && steps == 0 {
				t.Error("the layers' step is not on the site")
			}
			fresh := map[string]freshRecord{}
			for _, r := range recs {
				fresh[r.Stem] = rederive(t, filepath.Join(dir, r.Stem+".md"))
			}
			shown := 0
			lists, _ := filepath.Glob(filepath.Join(out, "f", "*.html"))
			for _, page := range append(lists, filepath.Join(out, "index.html")) {
				shown += sameHeadlines(t, page, fresh)
			}
			if shown < len(recs) {
				t.Errorf("%d headlines shown for %d records", shown, len(recs))
			}
		})
	}
}

// sameHistory compares a feature page's history with history --json's
// and returns the number of steps in it.
func sameHistory(t *testing.T, dir, out, feature string) int {
	t.Helper()
	want, code := decodebench(t, "history", "--dir", dir, "--json", feature)
	if code != 0 {
		t.Fatalf("history %s exited %d", feature, code)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, want); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(out, "f", feature+".html"))
	if err != nil {
		t.Fatal(err)
	}
	m := historyIsland.FindSubmatch(page)
	if m == nil || !bytes.Equal(m[1], compact.Bytes()) {
		t.Fatalf("%s: the page's history is not history --json's", feature)
	}
	var hist struct {
		Series []struct {
			Metrics []struct {
				Points []json.RawMessage `json:"points"`
				Steps  []json.RawMessage `json:"steps"`
			} `json:"metrics"`
		} `json:"series"`
	}
	if err := json.Unmarshal(want, &hist); err != nil {
		t.Fatal(err)
	}
	var plots struct {
		Plots map[string]struct {
			Ref []string `json:"ref"`
		} `json:"plots"`
	}
	pm := plotIsland.FindSubmatch(page)
	if pm == nil || json.Unmarshal(pm[1], &plots) != nil {
		t.Fatalf("%s: no plot data", feature)
	}
	drawn := map[string]int{}
	for _, p := range plots.Plots {
		for _, ref := range p.Ref {
			drawn[ref]++
		}
	}
	steps := 0
	for si, s := range hist.Series {
		for mi, m := range s.Metrics {
			steps += len(m.Steps)
			for pi := range m.Points {
				ref := fmt.Sprintf("%d.%d.%d", si, mi, pi)
				if drawn[ref] != 1 {
					t.Errorf("%s: point %s drawn %d times", feature, ref, drawn[ref])
				}
				delete(drawn, ref)
			}
		}
	}
	for ref := range drawn {
		if !strings.HasPrefix(ref, "x.") {
			t.Errorf("%s: the plots draw %s, which history does not have", feature, ref)
		}
	}
	return steps
}

// freshRecord is what check derives of a record: the verdict and the
// analysis of its runs under its stored scenario.
type freshRecord struct {
	verdict  schema.Verdict
	analysis schema.Analysis
}

func rederive(t *testing.T, path string) freshRecord {
	t.Helper()
	rec, err := recorder.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := recorder.DataPath(path, rec)
	src, err := os.ReadFile(filepath.Join(data, recorder.ScenarioFile))
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := scenarios.Parse(recorder.ScenarioFile, data, src, scenarios.Options{Offline: true, PromptText: rec.Scenario.Request.Prompt, Set: rec.Scenario.Overrides})
	if err != nil {
		t.Fatal(err)
	}
	a, v, err := analysis.Record(s.Policy, rec.Runs, rec.Method, rec.Schema)
	if err != nil {
		t.Fatal(err)
	}
	return freshRecord{v, a}
}

// sameHeadlines compares every headline and verdict of a page with the
// fresh analysis of its record, and returns how many it compared.
func sameHeadlines(t *testing.T, page string, fresh map[string]freshRecord) int {
	t.Helper()
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range verdictCell.FindAllSubmatch(b, -1) {
		if f, ok := fresh[string(m[1])]; ok && string(m[2]) != string(f.verdict) {
			t.Errorf("%s: %s shown %s, check derives %s", filepath.Base(page), m[1], m[2], f.verdict)
		}
	}
	n := 0
	for _, cell := range headlineCell.FindAllSubmatch(b, -1) {
		stem := string(cell[1])
		f, ok := fresh[stem]
		if !ok {
			t.Errorf("%s: a headline of %s, which is not a record", filepath.Base(page), stem)
			continue
		}
		n++
		var want []schema.ArmVerdict
		for _, v := range f.analysis.ArmVerdicts {
			if !v.Control && v.Comparison.Defined() && f.verdict.ShowsResults() {
				want = append(want, v)
			}
		}
		spans := ratioSpan.FindAllSubmatch(cell[2], -1)
		if len(spans) != len(want) {
			t.Errorf("%s: %s shows %d ratios, check derives %d", filepath.Base(page), stem, len(spans), len(want))
			continue
		}
		for i, s := range spans {
			c := want[i].Comparison
			text := fmt.Sprintf("%.3f×", c.Ratio)
			if c.HasInterval() {
				text += fmt.Sprintf(" [%.3f, %.3f]", c.Lo, c.Hi)
			}
			if !c.Significant {
				text += " ~"
			}
			if string(s[1]) != want[i].Arm || number(t, s[2]) != c.Ratio || c.HasInterval() && (number(t, s[3]) != c.Lo || number(t, s[4]) != c.Hi) ||
				string(s[5]) != text {
				t.Errorf("%s: %s shows %s %s, check derives %s %s", filepath.Base(page), stem, s[1], s[5], want[i].Arm, text)
			}
		}
	}
	return n
}

func number(t *testing.T, b []byte) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
