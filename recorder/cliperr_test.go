package recorder

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A decoding error quotes at most maxErrText of the record: a number a
// million digits long in the data block (or a run's line) came back whole
// in the error, which index writes into its README and history to stderr.
func TestDecodingErrorsAreCut(t *testing.T) {
	huge := strings.Repeat("9", 1_000_000)
	src, err := os.ReadFile(filepath.Join("..", "docs", "benchmark_results", "spec-draft-epyc-2026-12-06.md"))
	if err != nil {
		t.Fatal(err)
	}
	forged := bytes.Replace(src, []byte(`"rounds_run": `), []byte(`"rounds_run": `+huge+`, "x": `), 1)
	if bytes.Equal(forged, src) {
		t.Fatal("the record has no rounds_run to forge")
	}
	path := filepath.Join(t.TempDir(), "spec-draft-epyc-2026-12-06.md")
	if err := os.WriteFile(path, forged, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ParseFile(path)
	var je *json.UnmarshalTypeError
	if err == nil || len(err.Error()) > 2*maxErrText || !strings.Contains(err.Error(), "bytes cut") || !errors.As(err, &je) {
		t.Errorf("error of %d bytes (%T): %.300s", len(err.Error()), err, err)
	}
	_, err = ParseRuns(strings.NewReader(`{"seq": `+huge+`}`+"\n{}\n"), "runs.jsonl")
	if err == nil || len(err.Error()) > 2*maxErrText {
		t.Errorf("a run's line: error of %d bytes", len(err.Error()))
	}
}
