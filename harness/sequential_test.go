package harness

import (
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/schema"
)

// A sequential schedule stops at a look that decides every test arm, goes
// on at a look that does not, and stops at its last look whatever; the
// rule is the analysis' own (analysis.SequentialDone).
func TestSequentialScheduleStops(t *testing.T) {
	src := strings.Replace(testScenario, "rounds: 6", "rounds: {min: 3, max: 9, every: 3}", 1)
	for _, tc := range []struct {
		name   string
		b      []float64
		rounds int
		stop   bool
		why    string
	}{
		{"decided", []float64{110, 111, 109, 110, 110.5, 109.5}, 3, true, "decided every test arm (look 1 of 3"},
		{"undecided", []float64{101, 99, 100.5, 100, 99.5, 101}, 3, false, "no decision after 3 rounds (looks every 3 rounds from 3 to 9)"},
		{"between looks", []float64{110, 111, 109, 110, 110.5, 109.5}, 2, false, ""},
		{"last look", []float64{101, 99, 100.5, 100, 99.5, 101, 100, 99.8, 100.2}, 9, true, "maximum of 9 rounds reached"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := testCampaign(t, src)
			s := c.scenario
			plan, _ := Plan(s.ArmNames(), tc.rounds, s.Policy.Schedule.Order, s.Schedule.Seed)
			c.rec = c.newRecord("x", "2026-01-01", schema.MachineInfo{}, time.Unix(0, 0))
			c.rec.Method.Planned = Arms(plan)
			a := []float64{100, 101, 99, 100, 100.5, 99.5, 100.2, 99.7, 100.1}
			idx := map[string]int{}
			for _, slot := range plan {
				v := a[idx[slot.Arm]%len(a)]
				cv := 0.0
				if slot.Arm == "b" {
					v, cv = tc.b[idx[slot.Arm]%len(tc.b)], 5
				}
				idx[slot.Arm]++
				c.rec.Runs = append(c.rec.Runs, schema.Run{Seq: slot.Seq, Round: slot.Round, Arm: slot.Arm, Start: time.Unix(int64(slot.Seq*10), 0),
					Metrics: map[string]float64{"decode_tok_s": v, "wall_s": 1}, Counters: map[string]schema.CounterReading{"c": {Value: cv}}})
			}
			stop, why := c.scheduleDone(tc.rounds)
			if stop != tc.stop || !strings.Contains(why, tc.why) {
				t.Errorf("stop %v (%s), want %v (%s)", stop, why, tc.stop, tc.why)
			}
		})
	}
}
