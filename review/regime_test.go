package review

import (
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// A share past 100% of an arm without a draft model whose token fits in
// the last-level cache says so; any other effective arm (a draft model,
// or drafting by --spec-type alone, n-gram or MTP) is "effective".
func TestShareText(t *testing.T) {
	for _, c := range []struct {
		a    schema.ArmRoofline
		want string
	}{
		{schema.ArmRoofline{Share: 0.61}, "61%"},
		{schema.ArmRoofline{Share: 0.79, Effective: true}, "79% (effective)"},
		{schema.ArmRoofline{Share: 1.72, Effective: true, DraftModel: "draft.gguf"}, "172% (effective)"},
		{schema.ArmRoofline{Share: 1.91, Effective: true, CacheBytes: 1 << 28}, "191% (fits in the last-level cache)"},
		{schema.ArmRoofline{Share: 1.5, Effective: true}, "150% (effective)"},
	} {
		if got := ShareText(c.a); got != c.want {
			t.Errorf("%+v: %q, want %q", c.a, got, c.want)
		}
	}
}
