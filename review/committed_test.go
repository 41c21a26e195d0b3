package review

import (
	"path/filepath"
	"testing"
)

// Every committed record passes check: its data block is what a fresh
// analysis of its runs.jsonl under its stored scenario gives, and its
// Markdown is what the data block and the runs render to. A renderer or
// analysis change that alters a committed record fails here: regenerate
// the records by rerunning their scenarios, never by editing them.
func TestCommittedRecordsPassCheck(t *testing.T) {
	recs, err := filepath.Glob(filepath.Join("..", "docs", "benchmark_results", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range recs {
		if filepath.Base(p) == IndexFile {
			continue
		}
		n++
		for _, prob := range Check(p) {
			t.Errorf("%s: %s", filepath.Base(p), prob)
		}
	}
	if n == 0 {
		t.Fatal("no committed records in docs/benchmark_results")
	}
}

// Records written by earlier versions of decodebench, one under each rule
// that has since been superseded (testdata/older: robust-1, written by
// 5627dd3 with its shipped demo at 3 rounds), keep passing check: a rule
// is changed by adding a rule, never in place.
func TestOlderRecordsPassCheck(t *testing.T) {
	recs, err := filepath.Glob(filepath.Join("testdata", "older", "*.md"))
	if err != nil || len(recs) == 0 {
		t.Fatalf("no older records: %v", err)
	}
	for _, p := range recs {
		for _, prob := range Check(p) {
			t.Errorf("%s: %s", filepath.Base(p), prob)
		}
	}
}
