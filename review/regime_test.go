package review

import (
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// A share is "effective" for an arm whose command line drafts (a draft
// model, or --spec-type alone: n-gram, MTP), whatever the cache; an arm
// that does not draft and passes 100% says why: its token fits in the
// last-level cache, or it is past the memory's figure.
func TestShareText(t *testing.T) {
	for _, c := range []struct {
		a      schema.ArmRoofline
		drafts bool
		want   string
	}{
		{schema.ArmRoofline{Share: 0.61}, false, "61%"},
		{schema.ArmRoofline{Share: 0.79, Effective: true, DraftModel: "draft.gguf"}, true, "79% (effective)"},
		{schema.ArmRoofline{Share: 1.72, Effective: true, DraftModel: "draft.gguf", CacheBytes: 1 << 28}, true, "172% (effective)"},
		{schema.ArmRoofline{Share: 1.5, Effective: true}, true, "150% (effective)"},
		{schema.ArmRoofline{Share: 1.5, Effective: true, CacheBytes: 1 << 28}, true, "150% (effective)"},
		{schema.ArmRoofline{Share: 1.91, Effective: true, CacheBytes: 1 << 28}, false, "191% (fits in the last-level cache)"},
		{schema.ArmRoofline{Share: 1.4, Effective: true}, false, "140% (past the memory's figure)"},
	} {
		if got := ShareText(c.a, c.drafts); got != c.want {
			t.Errorf("%+v, drafts %v: %q, want %q", c.a, c.drafts, got, c.want)
		}
	}
}
