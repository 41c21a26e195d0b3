package review

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// recordEdit is an edit of a committed record's data block (re-rendered,
// its files re-hashed) and a problem check must name for it (none: the
// copy passes, not a problem at all).
type recordEdit struct {
	what string
	edit func(*schema.Record)
	want string
	// state, when set, changes the copy's campaign state (its path).
	state func(t *testing.T, path string)
}

// checkEdits checks a copy of the committed record name with each edit.
func checkEdits(t *testing.T, name string, edits []recordEdit) {
	t.Helper()
	src := filepath.Join("..", "docs", "benchmark_results", name+".md")
	srcData := filepath.Join(filepath.Dir(src), "data", name)
	for _, tc := range edits {
		rec, err := recorder.Load(src)
		if err != nil {
			t.Fatal(err)
		}
		tc.edit(rec)
		dir := t.TempDir()
		p := writeCopy(t, dir, srcData, rec)
		if tc.state != nil {
			tc.state(t, filepath.Join(dir, filepath.FromSlash(rec.DataDir), campaignStateFile))
		}
		probs := fmt.Sprint(Check(p))
		switch {
		case tc.want == "" && probs != "[]":
			t.Errorf("%s: %s", tc.what, probs)
		case tc.want != "" && !strings.Contains(probs, tc.want):
			t.Errorf("%s: check found %s\nwant a problem saying %q", tc.what, probs, tc.want)
		}
	}
}

// A record whose feature, hardware or date was edited away from its file
// name's fails check (regime and history group records by what they
// state); the copy as written passes.
func TestCheckHoldsTheRecordToItsName(t *testing.T) {
	checkEdits(t, "identity-chaotic-xeon-2026-12-03", []recordEdit{
		{what: "as written", edit: func(*schema.Record) {}},
		{what: "hardware", edit: func(r *schema.Record) { r.Hardware = "epyc" }, want: `states hardware "epyc" and date 2026-12-03, its file name xeon and 2026-12-03`},
		{what: "date", edit: func(r *schema.Record) { r.Date = "2025-01-01" }, want: `its file name xeon and 2026-12-03`},
		{what: "feature", edit: func(r *schema.Record) { r.Feature = "spec-draft" }, want: `the record states feature "spec-draft"`},
	})
}
