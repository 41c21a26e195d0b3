package recorder

import (
	"strings"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// The strip line counts every match the analysis counted, whether the
// result lists them all (records written before StrippedCount, and any
// with few) or only the first (StrippedCount).
func TestIdentityStrippedCount(t *testing.T) {
	for _, tc := range []struct {
		stripped []string
		count    int
		want     string
	}{
		{[]string{"a\n", "b\n", "c\n"}, 0, "Stripped before comparing (patterns `^.\\n`): 3 match(es), e.g. `\"a\\n\"`."},
		{[]string{"a\n"}, 1000000, "Stripped before comparing (patterns `^.\\n`): 1000000 match(es), e.g. `\"a\\n\"`."},
	} {
		r := &schema.Record{Schema: schema.SchemaV5}
		r.Analysis.Identity = &schema.IdentityResult{Verdict: schema.Identical, Against: "a", Strip: []string{`^.\n`}, Stripped: tc.stripped, StrippedCount: tc.count}
		var b strings.Builder
		st, _ := recordStyle(r, true)
		(&mdWriter{b: &b, st: st}).identity(r)
		if !strings.Contains(b.String(), tc.want) {
			t.Errorf("section lacks %q:\n%s", tc.want, b.String())
		}
	}
}
