package review

import (
	"strings"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// Two records of one build installed in two clones: their wrappers differ
// (older installs named the clone's path), the binary they wrap and its
// libraries do not, so diff names no engine difference. A different
// wrapped binary, or a changed kernel library, is named.
func TestEngineConditionsCompareWhatRuns(t *testing.T) {
	libs := func(ggml string) []schema.FileSum {
		return []schema.FileSum{{Path: "/a/lib/libllama.so.0.7.0", SHA256: "1111"}, {Path: "/a/lib/libggml-base.so.0", SHA256: ggml}}
	}
	rec := func(wrapper, real string, l []schema.FileSum) *schema.Record {
		return &schema.Record{Verdict: schema.Valid, Engine: schema.EngineInfo{SHA256: wrapper, RealSHA256: real, Libraries: l}}
	}
	engineConds := func(a, b *schema.Record) string {
		var out []string
		for _, c := range conditions("a.md", a, "b.md", b) {
			if strings.HasPrefix(c.What, "engine") {
				out = append(out, c.What+": "+c.Old+" → "+c.New)
			}
		}
		return strings.Join(out, "; ")
	}
	if got := engineConds(rec("w-clone-a", "bin", libs("2222")), rec("w-clone-b", "bin", libs("2222"))); got != "" {
		t.Errorf("same build in two clones: %s", got)
	}
	if got := engineConds(rec("w", "bin", libs("2222")), rec("w", "bin2", libs("2222"))); got != "engine binary sha256: bin → bin2" {
		t.Errorf("another wrapped binary: %q", got)
	}
	if got := engineConds(rec("w", "bin", libs("2222")), rec("w", "bin", libs("3333"))); got != "engine libraries: libggml-base.so.0 2222 → libggml-base.so.0 3333" {
		t.Errorf("another libggml: %q", got)
	}
	if got := engineConds(rec("plain", "", nil), rec("plain2", "", nil)); got != "engine binary sha256: plain → plain2" {
		t.Errorf("no wrapper: %q", got)
	}
}
