package review

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// A record whose feature, hardware or date was edited away from its file
// name's fails check (regime and history group records by what they
// state); the copy as written passes.
func TestCheckHoldsTheRecordToItsName(t *testing.T) {
	const name = "identity-chaotic-xeon-2026-12-03"
	src := filepath.Join("..", "docs", "benchmark_results", name+".md")
	srcData := filepath.Join(filepath.Dir(src), "data", name)
	for _, tc := range []struct {
		what string
		edit func(*schema.Record)
		want string
	}{
		{"as written", func(*schema.Record) {}, ""},
		{"hardware", func(r *schema.Record) { r.Hardware = "epyc" }, `states hardware "epyc" and date 2026-12-03, its file name xeon and 2026-12-03`},
		{"date", func(r *schema.Record) { r.Date = "2025-01-01" }, `its file name xeon and 2026-12-03`},
		{"feature", func(r *schema.Record) { r.Feature = "spec-draft" }, `the record states feature "spec-draft"`},
	} {
		rec, err := recorder.Load(src)
		if err != nil {
			t.Fatal(err)
		}
		tc.edit(rec)
		probs := fmt.Sprint(Check(writeCopy(t, t.TempDir(), srcData, rec)))
		switch {
		case tc.want == "" && strings.Contains(probs, "file name"):
			t.Errorf("%s: %s", tc.what, probs)
		case tc.want != "" && !strings.Contains(probs, tc.want):
			t.Errorf("%s: check found %s\nwant a problem saying %q", tc.what, probs, tc.want)
		}
	}
}
