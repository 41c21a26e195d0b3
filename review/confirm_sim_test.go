package review

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// -confirm.trials sets the trials of each cell of the confirmation's
// simulation; the default keeps `go test` short, the table in the docs
// is from 4000.
var confirmTrials = flag.Int("confirm.trials", 200, "trials per cell of TestConfirmSimulation")

// sessionHost is a host model of whole campaigns: each run's value is
// log-normal with coefficient of variation CV, and each campaign (session)
// moves the arm's ratio to its baseline by a log-normal offset of SessionSD,
// which no interval within a record sees.
type sessionHost struct {
	CV, SessionSD float64
	Rounds        int
}

// campaignOf simulates one campaign: a baseline near 100 and an arm at
// ratio of it, times the session's offset.
func (h sessionHost) campaignOf(rng *rand.Rand, ratio float64) *schema.Record {
	r := &schema.Record{Verdict: schema.Valid}
	r.Scenario.Baseline, r.Scenario.Primary = "base", schema.DecodeTokS
	r.Scenario.Arms = []schema.ArmInfo{{Name: "base"}, {Name: "arm"}}
	r.Method.Confidence, r.Method.Alpha = 0.95, 0.05
	r.Analysis.Results = []schema.MetricResult{{Metric: schema.DecodeTokS, Unit: "tok/s", HigherIsBetter: true, Primary: true}}
	offset := math.Exp(h.SessionSD * rng.NormFloat64())
	sigma := math.Sqrt(math.Log1p(h.CV * h.CV))
	for round := 1; round <= h.Rounds; round++ {
		for _, arm := range []string{"base", "arm"} {
			v := 100 * math.Exp(sigma*rng.NormFloat64())
			if arm == "arm" {
				v *= 0.8 * ratio * offset
			}
			r.Runs = append(r.Runs, schema.Run{Seq: len(r.Runs) + 1, Round: round, Arm: arm, Metrics: map[string]float64{schema.DecodeTokS: v}})
		}
	}
	return r
}

// confirmRates are the share of trials each gate raised an alarm in.
type confirmRates struct {
	single float64
	// rules, in the order of simRules; shared: the second session reruns
	// only the new record, own: it has its own old record too.
	shared, own []float64
}

// simRules are the rule the gate applies and the ones it was chosen over.
var simRules = []ConfirmRule{
	DefaultConfirmRule,
	{HeterogeneityAlpha: 0.10, Agreement: SecondSignificant, EachSignificantOverrides: true},
	{HeterogeneityAlpha: 0.10, Agreement: SameDirection, EachSignificantOverrides: true},
	{HeterogeneityAlpha: 0.10, Agreement: SameDirection},
	{Agreement: SameDirection},
}

// simulate runs trials of a true change of the arm's ratio (−0.05: a 5%
// regression) through the diff's gate and through Confirm, with the rules
// of simRules decided on the same sessions.
func simulate(h sessionHost, change float64, trials int, seed uint64) confirmRates {
	rng := rand.New(rand.NewPCG(seed, 33))
	out := confirmRates{shared: make([]float64, len(simRules)), own: make([]float64, len(simRules))}
	for range trials {
		old, nu := h.campaignOf(rng, 1), h.campaignOf(rng, 1+change)
		nu2, old2 := h.campaignOf(rng, 1+change), h.campaignOf(rng, 1)
		d := Compare("old.md", old, "new.md", nu, DiffOptions{Threshold: 0.02})
		if !d.Regressed() {
			continue
		}
		out.single++
		// One Confirm with a session of its own gives every record's
		// ratio; the shared form is the same arms without the second old
		// record, judged by the same code.
		c := Confirm(d, old, nu, SecondSession{OldPath: "old2.md", Old: old2, NewPath: "new2.md", New: nu2}, ConfirmOptions{})
		for _, a := range c.Arms {
			shared := a
			shared.Records = a.Records[:3]
			for i, rule := range simRules {
				if a.judge(rule, c.Family, c.Threshold); a.stands() {
					out.own[i]++
				}
				if shared.judge(rule, c.Family, c.Threshold); shared.stands() {
					out.shared[i]++
				}
			}
		}
	}
	out.single /= float64(trials)
	for i := range simRules {
		out.shared[i] /= float64(trials)
		out.own[i] /= float64(trials)
	}
	return out
}

// TestConfirmSimulation: seeded campaigns of the development VM's noise
// (CV 2% and 9%, six rounds) with a per-session offset of the arm's ratio
// (sd 0%, 1% and 2%): how often single-session gating (diff
// --fail-on-regression) and confirm mode raise an alarm without a change,
// and detect true regressions of 3%, 5% and 10%, under the rule the gate
// applies and the ones it was chosen over (the table in
// docs/reference/statistics.md is from -confirm.trials=2000). Confirm mode
// raises an alarm no more often than the single session, without a change
// no more than alpha (within three standard errors), whether the second
// session reruns only the new record or both, and at CV 2% it finds a 10%
// regression in at least 90% of pairs.
func TestConfirmSimulation(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	trials := *confirmTrials
	type cell struct {
		host   sessionHost
		change float64
	}
	var cells []cell
	for _, h := range []sessionHost{{0.02, 0, 6}, {0.02, 0.01, 6}, {0.02, 0.02, 6}, {0.09, 0.01, 6}, {0.09, 0.02, 6}} {
		for _, c := range []float64{0, -0.03, -0.05, -0.10} {
			cells = append(cells, cell{h, c})
		}
	}
	var table strings.Builder
	table.WriteString("| CV | session sd | change | single session | confirm, rerun of new | confirm, own old and new |\n|---|---|---|---|---|---|\n")
	bound := func(p float64) float64 { return p + 3*math.Sqrt(p*(1-p)/float64(trials)) }
	results := make([]confirmRates, len(cells))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, c := range cells {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			results[i] = simulate(c.host, c.change, trials, uint64(3300+i))
		})
	}
	wg.Wait()
	for i, c := range cells {
		r := results[i]
		fmt.Fprintf(&table, "| %g%% | %g%% | %+g%% | %.1f%% | %s | %s |\n", 100*c.host.CV, 100*c.host.SessionSD, 100*c.change, 100*r.single, rateList(r.shared), rateList(r.own))
		for k := range simRules {
			if r.shared[k] > r.single || r.own[k] > r.single {
				t.Errorf("%+v %+g: confirm mode (rule %d) raised more alarms than one session", c.host, c.change, k)
			}
		}
		if c.change == 0 && (r.shared[0] > bound(0.05) || r.own[0] > bound(0.05)) {
			t.Errorf("%+v: confirm mode raised %.3f / %.3f false alarms, above alpha 0.05", c.host, r.shared[0], r.own[0])
		}
		if c.change == -0.10 && c.host.CV == 0.02 && (r.shared[0] < 0.9 || r.own[0] < 0.9) {
			t.Errorf("%+v: confirm mode detected a 10%% regression in %.3f / %.3f of trials, want ≥ 0.9", c.host, r.shared[0], r.own[0])
		}
	}
	t.Logf("%d trials a cell; rules: %v\n%s", trials, simRules, table.String())
}

func rateList(rs []float64) string {
	var out []string
	for _, r := range rs {
		out = append(out, fmt.Sprintf("%.1f%%", 100*r))
	}
	return strings.Join(out, " / ")
}
