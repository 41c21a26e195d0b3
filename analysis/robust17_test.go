package analysis

import (
	"reflect"
	"testing"

	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
)

// robust-17 changes only the minimum detectable effect
// (schema.RuleRobust17): its rule value is robust-16's but for its name
// and its MDE's model (stats.KeptBySelection), and every analysis of the
// row cases' seeded campaigns is robust-16's once the MDEs are set aside.
// Its MDE differs where a campaign saw far rounds (the clean noise by the
// count kept) and where the rate's posterior is wide (its mean for the
// average over it); the calibration (stats.TestCalibration) holds it to
// 80–85% power.
func TestRobust17ChangesOnlyTheMDE(t *testing.T) {
	old, _ := RuleOf(schema.RuleRobust16)
	cur, _ := RuleOf(schema.RuleRobust17)
	if cur.MDE != (RoundsMDE{Kept: stats.KeptBySelection}) || old.MDE != (RoundsMDE{Kept: stats.KeptByPutBackSpread}) {
		t.Errorf("MDE: robust-17 %+v, robust-16 %+v", cur.MDE, old.MDE)
	}
	same := cur
	same.Name, same.MDE = old.Name, old.MDE
	if !reflect.DeepEqual(same, old) {
		t.Errorf("robust-17 is %+v, robust-16 %+v: more than its MDE differs", cur, old)
	}
	differ, mdes := 0, 0
	sameButMDEOnRowCases(t, schema.RuleRobust16, schema.RuleRobust17, func(_ rowCase, _ uint64, va, vb schema.ArmVerdict) {
		if va.MDE > 0 {
			mdes++
			if vb.MDE != va.MDE {
				differ++
			}
		}
	})
	if differ == 0 {
		t.Errorf("robust-17 stated robust-16's MDE in all %d verdicts", mdes)
	}
	t.Logf("robust-17's MDE differs from robust-16's in %d of %d verdicts", differ, mdes)
}
