package stats_test

import (
	"encoding/json"
	"testing"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/schema"
)

// A sequential look that goes on is judged without the MDEs
// (analysis.SequentialDone): at every look of 40 seeded campaigns (the
// CV 9% and CV 2% hosts, no change and +10%) it decides as the whole
// analysis does, with the same verdicts but for the MDEs; a look that
// stops returns the whole analysis, bit for bit.
func TestSequentialLookDecidesAsTheWholeAnalysis(t *testing.T) {
	p := simPolicyRounds(t, "{min: 5, max: 30, every: 5}", "")
	var stopped, went, withMDE int
	for i, h := range []host{calibNoisy, calibQuiet} {
		for _, effect := range []float64{1, 1.1} {
			spec := campaignSpec{policy: p, host: h, rule: schema.RuleCurrent}
			if effect != 1 {
				spec.effects = map[string]float64{"test": effect}
			}
			for seed := range uint64(10) {
				in := simInput(t, spec, 9100+100*uint64(i)+seed)
				arms := len(in.Policy.Arms)
				for _, look := range in.Policy.Schedule.Rounds.Looks() {
					sub := in
					sub.Runs = in.Runs[:look*arms]
					sub.Campaign.Planned = look * arms
					done, a := analysis.SequentialDone(sub)
					whole := analysis.Analyze(sub)
					if done != (look == in.Policy.Schedule.Rounds.Max || whole.Sequential.Decided) {
						t.Fatalf("seed %d, look %d: done %v, the whole analysis decided %v", seed, look, done, whole.Sequential.Decided)
					}
					if done {
						stopped++
						if !sameJSON(t, a, whole) {
							t.Fatalf("seed %d, look %d: the look that stopped is not the whole analysis", seed, look)
						}
						break
					}
					went++
					mde := false
					for j := range whole.ArmVerdicts {
						v := &whole.ArmVerdicts[j]
						mde = mde || v.MDE != 0
						v.MDE, v.MDEDown = 0, 0
					}
					if mde {
						withMDE++
					}
					if !sameJSON(t, a, whole) {
						t.Fatalf("seed %d, look %d: the look that went on differs from the whole analysis but for its MDEs", seed, look)
					}
				}
			}
		}
	}
	// Most looks that went on would have stated an MDE: left out there.
	if stopped != 40 || went == 0 || withMDE < went/2 {
		t.Errorf("%d campaigns stopped, %d looks went on, %d of them with an MDE the whole analysis states", stopped, went, withMDE)
	}
	t.Logf("%d campaigns stopped, %d looks went on, %d of them with an MDE the whole analysis states", stopped, went, withMDE)
}

func sameJSON(t *testing.T, a, b analysis.Analysis) bool {
	t.Helper()
	x, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	y, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return string(x) == string(y)
}

// BenchmarkSequentialLook is a look that goes on (the CV 9% host, no
// change, after 15 rounds), judged as SequentialDone judges it, against
// the whole analysis.
func BenchmarkSequentialLook(b *testing.B) {
	p := simPolicyRounds(b, "{min: 5, max: 30, every: 5}", "")
	in := simInput(b, campaignSpec{policy: p, host: calibNoisy, rule: schema.RuleCurrent}, 9001)
	in.Runs = in.Runs[:15*len(p.Arms)]
	in.Campaign.Planned = len(in.Runs)
	b.Run("judged", func(b *testing.B) {
		for b.Loop() {
			if done, _ := analysis.SequentialDone(in); done {
				b.Fatal("the look stopped")
			}
		}
	})
	b.Run("whole", func(b *testing.B) {
		for b.Loop() {
			analysis.Analyze(in)
		}
	})
}
