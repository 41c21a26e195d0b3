package recorder

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// analyze is analysis.Record for the records the tests make, whose rule
// is always known.
func analyze(p scenarios.Policy, runs []schema.Run, m schema.Method, version string) (schema.Analysis, schema.Verdict) {
	a, v, err := analysis.Record(p, runs, m, version)
	if err != nil {
		panic(err)
	}
	return a, v
}

// styleOf is the style of a record of the named rule.
func styleOf(rule schema.Rule, md bool) style {
	st, err := recordStyle(&schema.Record{Method: schema.Method{Rule: rule}}, md)
	if err != nil {
		panic(err)
	}
	return st
}

// golden compares got with the golden file at path, rewriting the file
// first under -update.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./recorder -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs; run go test ./recorder -update and review the diff", path)
	}
}
