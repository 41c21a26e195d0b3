package recorder

import (
	"strings"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// stats.pool_control is stated where it applies: the verdict line names
// the pooled reference and the method says how the controls were used; a
// record without it says neither.
func TestPooledReferenceStated(t *testing.T) {
	v := schema.ArmVerdict{Arm: "draft", Pooled: []string{"control"},
		Comparison: schema.Comparison{Robust: true, Ratio: 1.1, Lo: 1.05, Hi: 1.15, P: 0.001, Significant: true, Confidence: 0.95}}
	line := styleOf(schema.RuleRobust2, true).armVerdict(v, "classic", senseOfUnit(true, "tok/s"))
	if !strings.Contains(line, "`draft` vs `classic` + `control` (pooled):") {
		t.Errorf("verdict line: %s", line)
	}
	v.Pooled = nil
	if line := styleOf(schema.RuleRobust2, true).armVerdict(v, "classic", senseOfUnit(true, "tok/s")); strings.Contains(line, "pooled") {
		t.Errorf("unpooled verdict line says pooled: %s", line)
	}
	me := schema.Method{Rule: schema.RuleRobust2, Alpha: 0.05, MinEffect: 0.01, PoolControl: true}
	if s := methodStatistics(me, styleOf(me.Rule, true).rule); !strings.Contains(s, "pooled with the baseline into the reference") {
		t.Errorf("method: %s", s)
	}
	me.PoolControl = false
	if s := methodStatistics(me, styleOf(me.Rule, true).rule); strings.Contains(s, "pool") {
		t.Errorf("unpooled method says pooled: %s", s)
	}
}
