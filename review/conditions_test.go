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

// Records whose arms ran their own engines are compared arm by arm: the
// head build that changed is named with its arm, the unchanged base not;
// a record of one engine against one of two compares each arm's.
func TestEngineConditionsPerArm(t *testing.T) {
	arms := []schema.ArmInfo{{Name: "base"}, {Name: "head"}}
	two := func(base, head string) *schema.Record {
		r := &schema.Record{Verdict: schema.Valid, Schema: schema.SchemaV4, Engine: schema.EngineInfo{SHA256: base}}
		r.Scenario.Arms = arms
		r.Engines = []schema.ArmsEngine{{Arms: []string{"base"}, EngineInfo: schema.EngineInfo{SHA256: base}}, {Arms: []string{"head"}, EngineInfo: schema.EngineInfo{SHA256: head}}}
		return r
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
	if got := engineConds(two("b1", "h1"), two("b1", "h2")); got != "engine binary sha256 of arm head: h1 → h2" {
		t.Errorf("head rebuilt: %q", got)
	}
	if got := engineConds(two("b1", "h1"), two("b1", "h1")); got != "" {
		t.Errorf("same builds: %q", got)
	}
	one := &schema.Record{Verdict: schema.Valid, Engine: schema.EngineInfo{SHA256: "b1"}}
	one.Scenario.Arms = arms
	if got := engineConds(one, two("b1", "h1")); got != "engine binary sha256 of arm head: b1 → h1" {
		t.Errorf("one engine, then two: %q", got)
	}
}

// check refuses a record whose per-arm engines do not add up.
func TestCheckEngines(t *testing.T) {
	rec := func(schemaV string, engines ...schema.ArmsEngine) *schema.Record {
		r := &schema.Record{Schema: schemaV, Engine: schema.EngineInfo{Path: "/b", SHA256: "b"}, Engines: engines}
		r.Scenario.Arms = []schema.ArmInfo{{Name: "base"}, {Name: "head"}}
		r.Scenario.Baseline = "base"
		return r
	}
	base := schema.ArmsEngine{Arms: []string{"base"}, EngineInfo: schema.EngineInfo{Path: "/b", SHA256: "b"}}
	head := schema.ArmsEngine{Arms: []string{"head"}, EngineInfo: schema.EngineInfo{Path: "/h", SHA256: "h"}}
	for _, c := range []struct {
		name string
		rec  *schema.Record
		want string
	}{
		{"good v4", rec(schema.SchemaV4, base, head), ""},
		{"good v3", rec(schema.Schema), ""},
		{"v3 with engines", rec(schema.Schema, base, head), "cannot list engines per arm"},
		{"v4 without", rec(schema.SchemaV4), "lists the engines its arms ran"},
		{"arm missing", rec(schema.SchemaV4, base, schema.ArmsEngine{Arms: []string{"other"}, EngineInfo: head.EngineInfo}), "arm head is listed under 0 engines"},
		{"baseline's engine", rec(schema.SchemaV4, schema.ArmsEngine{Arms: []string{"base"}, EngineInfo: head.EngineInfo}, schema.ArmsEngine{Arms: []string{"head"}, EngineInfo: base.EngineInfo}), "not the baseline"},
	} {
		var msgs []string
		for _, p := range checkEngines(c.rec) {
			msgs = append(msgs, p.Message)
		}
		got := strings.Join(msgs, "; ")
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// An index row says on what terms a verdict holds: gates the scenario
// relaxed, values changed with run --set.
func TestIndexVerdictMarksRelaxedGatesAndOverrides(t *testing.T) {
	rec := &schema.Record{Verdict: schema.Valid}
	if got := verdictCell(FleetRecord{Rec: rec}); got != "VALID" {
		t.Errorf("plain: %q", got)
	}
	rec.Analysis.Warnings = schema.Reasons{schema.GatesRelaxed{Which: "max_spread 50% instead of 4%"}}
	rec.Scenario.Overrides = []string{"schedule.rounds=2"}
	if got := verdictCell(FleetRecord{Rec: rec}); got != "VALID (relaxed gates: max\\_spread 50% instead of 4%; --set schedule.rounds=2)" {
		t.Errorf("marked: %q", got)
	}
}
