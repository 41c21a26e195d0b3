package stats_test

// The calibration table of issue 18: whole campaigns (baseline, negative
// control, test arm) planned by harness.Plan and judged by
// analysis.Analyze, on the host models of the issue (log-normal noise of
// CV 2% and 9%, a drift common to all arms, 5% of runs stalled by 30%).
// Each row gives the family-wise false-claim rate of A/A/A campaigns, the
// power at +3%, +5% and +10%, the MDE the records state (median over the
// A/A/A campaigns) and the power at that effect, and the coverage of the
// test arm's interval.
//
// go test -run TestCalibration -v ./stats/ runs a few hundred campaigns a
// cell and asserts the targets; -calibration.campaigns=1000 gives the
// full table.

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/internal/workers"
	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
)

var (
	calibrationCampaigns = flag.Int("calibration.campaigns", 0, "campaigns per cell of TestCalibration's table (0: a quick run)")
	calibrationCurrent   = flag.Bool("calibration.current", false, "with -calibration.campaigns, the current rule's table alone")
	calibrationRule      = flag.String("calibration.rule", "", "with -calibration.campaigns, this rule's table alone (its targets asserted as the current rule's)")
)

// The host models of the issue.
var (
	calibQuiet = host{cv: 0.02, drift: 0.03, stall: 0.05, stallCost: 0.3}
	calibNoisy = host{cv: 0.09, drift: 0.05, stall: 0.05, stallCost: 0.3}
)

type calibRow struct {
	name   string
	h      host
	rounds int
	// schedule, when set, is a sequential schedule.rounds (rounds is
	// then its maximum).
	schedule string
}

var calibRows = []calibRow{
	{"CV 2%", calibQuiet, 6, ""},
	{"CV 2%", calibQuiet, 10, ""},
	{"CV 9%", calibNoisy, 10, ""},
	{"CV 2%", calibQuiet, 30, "{min: 5, max: 30, every: 5}"},
	{"CV 9%", calibNoisy, 30, "{min: 5, max: 30, every: 5}"},
	// Thirty fixed rounds on the noisy host: the sequential row's most
	// rounds, the ceiling of its power (the row a review asked for).
	{"CV 9%", calibNoisy, 30, ""},
}

// calibCell is what a set of campaigns at one true effect gives.
type calibCell struct {
	claims, right, covered float64
	mde                    []float64
	// rounds is the mean number of rounds run (sequential schedules).
	rounds float64
}

// runParallel is run() spread over the machine's cores; campaign i has
// seed seed*100000+i whatever the number of workers.
func runParallel(t testing.TB, spec campaignSpec, campaigns int, truth float64, seed uint64) calibCell {
	outs := make([]outcome, campaigns)
	workers.ForEach(campaigns, func(i int) { outs[i] = outcomeOf(simulate(t, spec, seed*100000+uint64(i)), truth) })
	var c calibCell
	for _, o := range outs {
		if o.claim {
			c.claims++
			if (o.dir > 0) == (truth > 1) {
				c.right++
			}
		}
		if o.covered {
			c.covered++
		}
		c.rounds += float64(o.rounds) / float64(campaigns)
		c.mde = append(c.mde, o.mde)
	}
	n := float64(campaigns)
	c.claims, c.right, c.covered = c.claims/n, c.right/n, c.covered/n
	return c
}

// calibResult is one row of the table.
type calibResult struct {
	row                 calibRow
	falseClaims         float64
	power3, power5, p10 float64
	mde, powerAtMDE     float64
	coverage            float64
	// rounds are the mean rounds run at no effect, +3%, +5% and +10%
	// (sequential schedules).
	rounds [4]float64
}

func calibrate(t testing.TB, r calibRow, rule schema.Rule, campaigns int, seed uint64) calibResult {
	p := simPolicy(t, r.rounds, "")
	if r.schedule != "" {
		p = simPolicyRounds(t, r.schedule, "")
	}
	spec := func(effect float64) campaignSpec {
		s := campaignSpec{policy: p, host: r.h, rule: rule}
		if effect != 1 {
			s.effects = map[string]float64{"test": effect}
		}
		return s
	}
	null := runParallel(t, spec(1), campaigns, 1, seed)
	c3 := runParallel(t, spec(1.03), campaigns, 1.03, seed+1)
	c5 := runParallel(t, spec(1.05), campaigns, 1.05, seed+2)
	c10 := runParallel(t, spec(1.10), campaigns, 1.10, seed+3)
	res := calibResult{row: r, falseClaims: null.claims, power3: c3.right, power5: c5.right, p10: c10.right,
		mde: median(null.mde), powerAtMDE: math.NaN(),
		coverage: (null.covered + c3.covered + c5.covered + c10.covered) / 4,
		rounds:   [4]float64{null.rounds, c3.rounds, c5.rounds, c10.rounds}}
	if !math.IsInf(res.mde, 1) { // most campaigns state an MDE
		atMDE := runParallel(t, spec(1+res.mde), campaigns, 1+res.mde, seed+4)
		res.powerAtMDE = atMDE.right
		res.coverage = (4*res.coverage + atMDE.covered) / 5
	}
	return res
}

func calibTable(rule schema.Rule, campaigns int, seed uint64, res []calibResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "rule %q, %d campaigns a cell, seeds %d..%d (×100000 + campaign)\n", rule, campaigns, seed, seed+4)
	b.WriteString("| host model | rounds | false claims (nominal 5%) | power at +3% / +5% / +10% | stated MDE → power at it | coverage (nominal 95%) |\n")
	b.WriteString("|---|---|---|---|---|---|\n")
	for _, r := range res {
		rounds := fmt.Sprint(r.row.rounds)
		if r.row.schedule != "" {
			rounds = fmt.Sprintf("%s: mean %.1f / %.1f / %.1f / %.1f at 0 / +3 / +5 / +10%%", r.row.schedule, r.rounds[0], r.rounds[1], r.rounds[2], r.rounds[3])
		}
		fmt.Fprintf(&b, "| %s | %s | %.1f%% | %.0f%% / %.0f%% / %.0f%% | %s | %.1f%% |\n",
			r.row.name, rounds, 100*r.falseClaims, 100*r.power3, 100*r.power5, 100*r.p10, mdeCell(r.mde, r.powerAtMDE), 100*r.coverage)
	}
	return b.String()
}

// mdeCell is the median stated MDE and the power at it, or that most
// campaigns state none.
func mdeCell(mde, power float64) string {
	if math.IsInf(mde, 1) {
		return "none stated by most campaigns"
	}
	return fmt.Sprintf("%.1f%% → %.0f%%", 100*mde, 100*power)
}

// TestCalibration prints the table for the rule new records use and, with
// -calibration.campaigns set, for the rule of the records written before
// it; it asserts the targets on the current rule.
func TestCalibration(t *testing.T) {
	t.Parallel() // a seeded simulation with its own generators: runs beside the others
	campaigns := *calibrationCampaigns
	quick := campaigns == 0
	if quick {
		campaigns = 200
		if testing.Short() {
			t.Skip("simulation")
		}
	}
	const seed = 1800
	current := schema.RuleCurrent
	if *calibrationRule != "" && !quick {
		current = schema.Rule(*calibrationRule)
	}
	rules := []schema.Rule{current}
	if !quick && !*calibrationCurrent && *calibrationRule == "" {
		rules = append(rules, schema.RuleRobust2, schema.RuleMedianU)
	}
	for _, rule := range rules {
		var res []calibResult
		for i, r := range calibRows {
			if r.schedule != "" && !mustRule(rule).Sequential() {
				continue // the first rule has no sequential looks
			}
			n := campaigns
			if quick && (r.schedule != "" || r.rounds >= 30) {
				n /= 2 // up to six looks or thirty rounds a campaign: the slow rows
			}
			res = append(res, calibrate(t, r, rule, n, seed+10*uint64(i)))
		}
		t.Logf("\n%s", calibTable(rule, campaigns, seed, res))
		if rule != current {
			continue
		}
		for _, r := range res {
			n := campaigns
			if quick && (r.row.schedule != "" || r.row.rounds >= 30) {
				n /= 2
			}
			checkCalibration(t, r, rule, n)
		}
	}
}

// checkCalibration asserts the targets, widened by the sampling
// error of the number of campaigns (three standard errors).
func checkCalibration(t *testing.T, r calibResult, rule schema.Rule, campaigns int) {
	t.Helper()
	se := func(p float64) float64 { return 3 * math.Sqrt(p*(1-p)/float64(campaigns)) }
	name := fmt.Sprintf("%s, %d rounds", r.row.name, r.row.rounds)
	if r.falseClaims > 0.05+se(0.05) {
		t.Errorf("%s: false claims %.3f > 0.05", name, r.falseClaims)
	}
	// A sequential campaign's intervals are at the level spent per look
	// (99.2% for six looks at 5%): conservative by construction, so only
	// the lower bound applies to them.
	hi := 0.96
	if r.row.schedule != "" {
		hi = 1
	}
	if r.coverage < 0.94-se(0.95)/math.Sqrt(5) || r.coverage > hi+se(0.95)/math.Sqrt(5) {
		t.Errorf("%s: coverage %.3f outside 94–96%%", name, r.coverage)
	}
	// On the CV 9% host a stall (30% slow) is only four standard
	// deviations out and most stalls stay in: rule robust-2, which took
	// the stall rate a campaign saw at face value, was met with 77.7%
	// power after ten fixed rounds (3,000 campaigns); robust-3 averages
	// over the rate's uncertainty and holds 78–85% on this row too.
	lo := 0.78
	if r.row.h == calibNoisy && r.row.schedule == "" && mustRule(rule).MDE == (analysis.ModelledMDE{StallRate: stats.StallRateSeen}) {
		lo = 0.74
	}
	// Rule robust-4 compared by round with stalls confirmed in a cascade
	// and an MDE that modelled none where a campaign saw none: 72% at the
	// stated MDE after six rounds (3,000 campaigns a cell), 76% after
	// ten. Its records keep it; the current rule is held to the target.
	if rule == schema.RuleRobust4 && r.row.rounds == 6 {
		lo = 0.6
	}
	if math.IsInf(r.mde, 1) {
		t.Errorf("%s: most campaigns state no MDE", name)
	} else if r.powerAtMDE < lo-se(0.8) || r.powerAtMDE > 0.85+se(0.8) {
		t.Errorf("%s: power at the stated MDE %.3f outside %.0f–85%%", name, r.powerAtMDE, 100*lo)
	}
	// Power at +3% after ten rounds on the CV 2% host: the regression of
	// robust-1 to robust-3 found it in 81%. The comparison by round
	// (robust-4 on) loses a stalled round whole, the reference's run with
	// it, and finds it in 75% (3,000 campaigns, robust-4 to robust-6 and
	// the trial robust-7);
	// its stated MDE, 3.6%, is met with 85%, the target.
	lo3 := 0.8
	if _, byRound := mustRule(rule).Comparison.(analysis.RoundBlocks); byRound {
		lo3 = 0.75
	}
	if r.row.h == calibQuiet && r.row.rounds == 10 && r.power3 < lo3-se(0.8) {
		t.Errorf("%s: power at +3%% %.3f < %.2f", name, r.power3, lo3)
	}
	// The sequential CV 9% row at +10%: robust-3 (Bonferroni over six
	// looks) found it in 79% of campaigns at 19.4 rounds on average (3,000
	// campaigns); the O'Brien-Fleming type spending finds it in 83–84%
	// (robust-4 to robust-9), deciding later (about 23 rounds: it spends
	// little at the early looks), as often as thirty fixed rounds do (the
	// last row: 83% under robust-9).
	if r.row.h == calibNoisy && r.row.schedule != "" && (r.p10 < 0.8-se(0.8) || r.rounds[3] > 25) {
		t.Errorf("%s: power at +10%% %.3f at %.1f rounds on average, want ≥ 80%% within 25", name, r.p10, r.rounds[3])
	}
}

// Drift that means something (issue 18): under no drift of any arm's own,
// with a drift common to every arm, stalls and noise, the relative-drift
// flag of the current rule fires on at most 5% of the arms compared with
// the baseline; an arm that alone drifts over the campaign (heat it
// builds: 10% on the quiet host, 30% on the noisy one, where a 10% trend
// of ten runs is within the noise) is flagged in most campaigns. The
// first rule's flag is measured beside it.
func TestDriftFlagCalibration(t *testing.T) {
	t.Parallel() // a seeded simulation with its own generators: runs beside the others
	if testing.Short() {
		t.Skip("simulation")
	}
	const campaigns = 300
	thermal := func(h host, by float64) func(rng *rand.Rand, arm string, center float64, pos float64) float64 {
		return func(rng *rand.Rand, arm string, center float64, pos float64) float64 {
			v := center * math.Exp(h.cv*rng.NormFloat64())
			if arm == "test" {
				v *= 1 - by*pos
			}
			return v
		}
	}
	for _, c := range []struct {
		name    string
		h       host
		rounds  int
		thermal float64
	}{
		{"CV 9%, common drift", calibNoisy, 6, 0},
		{"CV 9%, common drift", calibNoisy, 10, 0},
		{"CV 2%, common drift", calibQuiet, 6, 0},
		{"CV 2%, common drift", calibQuiet, 10, 0},
		{"CV 2%, test arm alone -10%", calibQuiet, 10, 0.10},
		{"CV 9%, test arm alone -30%", calibNoisy, 10, 0.30},
	} {
		for _, rule := range []schema.Rule{schema.RuleCurrent, schema.RuleMedianU} {
			p := simPolicy(t, c.rounds, "")
			flagged, arms := 0, 0
			for i := range campaigns {
				spec := campaignSpec{policy: p, host: c.h, rule: rule}
				if c.thermal > 0 {
					spec.valueAt = thermal(c.h, c.thermal)
				}
				a := simulate(t, spec, 1900000+uint64(i))
				arms += 2
				for _, f := range a.Flags {
					switch d := f.(type) {
					case schema.RelativeDrift:
						if c.thermal == 0 || d.Arm == "test" {
							flagged++
						}
					case schema.Drift:
						if d.Arm != "base" && (c.thermal == 0 || d.Arm == "test") {
							flagged++
						}
					}
				}
			}
			share := float64(flagged) / float64(arms)
			if c.thermal > 0 {
				share *= 2 // one arm of the two drifts
			}
			t.Logf("%s, %d rounds, rule %q: drift flagged on %.1f%% of arms", c.name, c.rounds, rule, 100*share)
			if rule != schema.RuleCurrent {
				continue
			}
			// At most 5%, widened by three standard errors of the share.
			if c.thermal == 0 && share > 0.05+3*math.Sqrt(0.05*0.95/float64(arms)) {
				t.Errorf("%s, %d rounds: false drift flags on %.3f of arms > 0.05", c.name, c.rounds, share)
			}
			// Measured: 83% (CV 2%, −10%), 52% (CV 9%, −30%: ten runs of
			// 9% noise hold a 30% trend's slope to about 2.6 standard
			// errors).
			if c.thermal > 0 && share < map[bool]float64{true: 0.75, false: 0.4}[c.h == calibQuiet] {
				t.Errorf("%s: an arm drifting alone flagged in only %.3f of campaigns", c.name, share)
			}
		}
	}
}
