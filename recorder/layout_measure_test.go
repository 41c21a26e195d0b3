package recorder

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// lineOf is the 1-based line of the first line of md that is exactly
// heading, 0 when there is none.
func lineOf(md, heading string) int {
	for i, l := range strings.Split(md, "\n") {
		if l == heading {
			return i + 1
		}
	}
	return 0
}

// Committed records of three arms (a 15-run v3 one and the 18-run v2 one
// of 1,441 lines), written again as a campaign writes one now: their
// results come within the first screen and they are shorter, and each
// still renders as it was written under its own version.
func TestAnswerFirstShortensCommittedRecords(t *testing.T) {
	for _, name := range []string{"spec-draft-epyc-2026-12-02-2.md", "spec-openai-chat-epyc-2026-11-29.md"} {
		t.Run(name, func(t *testing.T) { answerFirstAgain(t, filepath.Join("..", "docs", "benchmark_results", name)) })
	}
}

func answerFirstAgain(t *testing.T, path string) {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	was := rec.Schema
	if was == schema.SchemaV5 || len(rec.Scenario.Arms) != 3 {
		t.Fatalf("the record is %s with arms %v", rec.Schema, rec.Scenario.Arms)
	}
	render := func() string {
		var b bytes.Buffer
		if err := Markdown(&b, rec); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	old := render()
	if old != string(src) {
		t.Fatal("the committed record does not render as it was written")
	}
	dataDir := filepath.Join(filepath.Dir(path), rec.DataDir)
	scenario, err := os.ReadFile(filepath.Join(dataDir, ScenarioFile))
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := scenarios.Parse(ScenarioFile, dataDir, scenario, scenarios.Options{Offline: true, PromptText: rec.Scenario.Request.Prompt, Set: rec.Scenario.Overrides})
	if err != nil {
		t.Fatal(err)
	}
	rec.Schema = schema.SchemaV5
	rec.Analysis, rec.Verdict = analyze(s.Policy, rec.Runs, rec.Method, rec.Schema)
	now := render()
	oldResults, newResults := lineOf(old, "## Results"), lineOf(now, "## Results")
	oldLines, newLines := strings.Count(old, "\n"), strings.Count(now, "\n")
	oldShown, newShown := shownLines(old), shownLines(now)
	t.Logf("%d runs, %d arms: %s results at line %d, %d lines shown unfolded, %d in all; %s results at line %d, %d lines shown unfolded, %d in all",
		len(rec.Runs), len(rec.Scenario.Arms), was, oldResults, oldShown, oldLines, schema.SchemaV5, newResults, newShown, newLines)
	if newResults == 0 || newResults > 30 || newResults >= oldResults {
		t.Errorf("results at line %d, was %d", newResults, oldResults)
	}
	if newShown >= oldShown {
		t.Errorf("%d lines shown unfolded, was %d", newShown, oldShown)
	}
	if got, err := Parse(strings.NewReader(now)); err != nil || got.Schema != schema.SchemaV5 {
		t.Fatalf("the new layout does not parse back: %v", err)
	}
}

// shownLines counts the lines of md a reader sees before unfolding
// anything: those outside <details> blocks, each block's summary line
// counted.
func shownLines(md string) int {
	n, depth := 0, 0
	for _, l := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(l, "<details>"):
			if depth == 0 {
				n++
			}
			depth++
		case strings.HasPrefix(l, "</details>"):
			depth--
		case depth == 0:
			n++
		}
	}
	return n
}
