package review

import (
	"crypto/sha1"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/changepoint"
	"github.com/decodebench/decodebench/history"
	"github.com/decodebench/decodebench/internal/synthrecords"
)

func commitOf(i int) string { return fmt.Sprintf("%x", sha1.Sum([]byte(fmt.Sprint(i)))) }

// plantedStep writes n records of one hardware whose primary metric
// steps at n/2: the baseline's own by base, the arm's by arm.
func plantedStep(t *testing.T, n int, base, arm float64) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	paths, err := synthrecords.Generate(synthrecords.Spec{Source: demoRecord, Dir: dir, N: n, Link: true,
		Start: time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC), Noise: 0.01, Seed: 7,
		Scale: func(i int) (float64, float64) {
			if i >= n/2 {
				return base, arm
			}
			return 1, 1
		},
		Engine: func(i int) (string, string) { return fmt.Sprintf("version: build %d", 100+i), commitOf(i) }})
	if err != nil {
		t.Fatal(err)
	}
	return dir, paths
}

// A planted 5% slowdown of the arm shows in the index: the top page's
// row for the feature and hardware names the latest record and the step;
// the feature page lists the step with the records on either side, their
// engine versions and commits, and the bisect command; the plot is there;
// every link is relative; and a second run changes no byte.
func TestIndexShowsPlantedStep(t *testing.T) {
	const n = 24
	dir, paths := plantedStep(t, n, 1, 0.95)
	cache := &CheckCache{Dir: t.TempDir(), Identity: "test"}
	written, err := Index(dir, cache)
	if err != nil {
		t.Fatal(err)
	}
	if len(written) != 3 {
		t.Errorf("wrote %v, want the top page, the feature page and the plot", written)
	}
	top, _ := os.ReadFile(filepath.Join(dir, IndexFile))
	page, _ := os.ReadFile(filepath.Join(dir, "index", "spec-draft.md"))
	if _, err := os.Stat(filepath.Join(dir, "index", "spec-draft-trend.png")); err != nil {
		t.Error(err)
	}
	latest := strings.TrimSuffix(filepath.Base(paths[n-1]), ".md")
	before, after := strings.TrimSuffix(filepath.Base(paths[n/2-1]), ".md"), strings.TrimSuffix(filepath.Base(paths[n/2]), ".md")
	for _, want := range []string{
		fmt.Sprintf("| [`spec-draft`](index/spec-draft.md) | `epyc` | [%s](%s.md) ", latest, latest),
		"| 1, latest 2026-09-13: draft / classic decode\\_tok\\_s -",
		"![spec-draft trend](index/spec-draft-trend.png)",
	} {
		if !strings.Contains(string(top), want) {
			t.Errorf("the top page lacks %q:\n%s", want, top)
		}
	}
	if strings.Count(string(top), "](spec-draft-epyc-") != 1 {
		t.Errorf("the top page lists older records:\n%s", top)
	}
	for _, want := range []string{
		fmt.Sprintf("[%s](../%s.md) 2026-09-12 | [%s](../%s.md) 2026-09-13", before, before, after, after),
		fmt.Sprintf("version: build %d @%s → version: build %d @%s", 100+n/2-1, commitOf(n/2 - 1)[:12], 100+n/2, commitOf(n / 2)[:12]),
		fmt.Sprintf("decodebench bisect --source . --good %s --bad %s --build \"$BUILD\" --threshold", commitOf(n/2-1), commitOf(n/2)),
		"![spec-draft trend](spec-draft-trend.png)",
		"[All features](../README.md)",
	} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the feature page lacks %q:\n%s", want, page)
		}
	}
	if strings.Count(string(page), "](../spec-draft-epyc-") != n+3 {
		t.Errorf("the feature page does not list every record once (and the step's two again, and the regime table's latest VALID record)")
	}
	for _, b := range [][]byte{top, page} {
		if strings.Contains(string(b), dir) || strings.Contains(string(b), "](/") {
			t.Error("an index page holds an absolute path")
		}
	}
	again, err := Index(dir, cache)
	if err != nil || len(again) != 0 {
		t.Errorf("a second run wrote %v (%v), want nothing", again, err)
	}
}

// A step in the baseline's own metric, with the ratio unchanged, is found
// in the baseline's series only.
func TestHistoryBaselineStep(t *testing.T) {
	dir, _ := plantedStep(t, 20, 0.95, 0.95)
	recs, bad, err := LoadHistory(dir)
	if err != nil || len(bad) > 0 || len(recs) != 20 {
		t.Fatalf("%d records, %v, %v", len(recs), bad, err)
	}
	series := history.Build(recs, changepoint.Defaults)
	if len(series) != 1 {
		t.Fatalf("%d series, want 1", len(series))
	}
	for _, m := range series[0].Metrics {
		switch m.Kind {
		case history.KindBaseline:
			if len(m.Steps) != 1 || m.Steps[0].Index != 10 || !m.Steps[0].Worse || !m.Steps[0].Bisectable {
				t.Errorf("baseline steps %+v, want one worse, bisectable step at record 10", m.Steps)
			}
		case history.KindRatio:
			if len(m.Steps) != 0 {
				t.Errorf("%s: steps %+v in a ratio that did not move", m.Arm, m.Steps)
			}
		}
	}
}
