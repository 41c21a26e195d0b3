package review

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A record that fails check enters no series: a step between records
// whose numbers someone wrote is not a step in what was measured (a
// reviewer's eight crafted records, each failing check, made the index
// list a +49.9% step with p 1e-15). The record is still listed with its
// problems.
func TestFleetSeriesTakeOnlyCheckedRecords(t *testing.T) {
	src := filepath.Join("..", "docs", "benchmark_results")
	dir := t.TempDir()
	names, _ := filepath.Glob(filepath.Join(src, "spec-draft-epyc-*.md"))
	if len(names) < 3 {
		t.Fatalf("committed spec-draft-epyc records: %v", names)
	}
	for _, n := range names {
		stem := strings.TrimSuffix(filepath.Base(n), ".md")
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, stem+".md"), b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.CopyFS(filepath.Join(dir, "data", stem), os.DirFS(filepath.Join(src, "data", stem))); err != nil {
			t.Fatal(err)
		}
	}
	in := func(f *Fleet, stem string) bool {
		for _, s := range f.Series {
			if slices.Contains(s.Records, stem) {
				return true
			}
		}
		return false
	}
	broken := strings.TrimSuffix(filepath.Base(names[1]), ".md")
	f, err := ReadFleet(dir, nil)
	if err != nil || !in(f, broken) {
		t.Fatalf("before the edit: %v, %s in a series: %v", err, broken, in(f, broken))
	}
	runs := filepath.Join(dir, "data", broken, "runs.jsonl")
	b, err := os.ReadFile(runs)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(runs, []byte(strings.Replace(string(b), `"decode_tok_s":`, `"decode_tok_s":1`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err = ReadFleet(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if in(f, broken) {
		t.Errorf("%s fails check and is in a series", broken)
	}
	listed := false
	for _, r := range f.Records["spec-draft"] {
		listed = listed || (r.Stem == broken && len(r.Problems) > 0)
	}
	if !listed {
		t.Errorf("%s is not listed with its problems", broken)
	}
}
