package stats_test

// These simulations run whole campaigns through the production code: the
// planner (harness.Plan) decides the order of runs, and the verdict comes
// from analysis.Analyze under the policy a scenario file compiles to. Only
// the runs are synthetic: a host that drifts slowly, per-run log-normal
// noise and occasional stalls. Each Analyze uses fewer bootstrap resamples
// than production (simResamples) to keep the run time modest; the
// production default stays scenarios.Resamples.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/harness"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

const simResamples = 400

// host is a simulated machine.
type host struct {
	// cv is the per-run noise (σ of log values); drift the typical total
	// drift over a campaign (random walk plus a linear trend); stall the
	// probability that a run is stalled, losing stallCost of its rate.
	cv, drift, stall, stallCost float64
}

var (
	// thisMachine: the noise measured on the 2-core VM (CV 8–10%),
	// drifting a few percent over a campaign, one run in 20 stalled.
	thisMachine = host{cv: 0.09, drift: 0.05, stall: 0.05, stallCost: 0.4}
	quietHost   = host{cv: 0.02, drift: 0.03, stall: 0.02, stallCost: 0.3}
)

// simScenario is a 3-arm campaign: baseline, negative control, test arm.
// The spread gate is off: at this machine's noise it would make every
// campaign INCONCLUSIVE, and these tests measure the statistical rule.
func simPolicy(t testing.TB, rounds int, extra string) scenarios.Policy {
	t.Helper()
	return simPolicyRounds(t, fmt.Sprint(rounds), extra)
}

// simPolicyRounds is simPolicy with schedule.rounds as YAML, e.g.
// "{min: 5, max: 30, every: 5}".
func simPolicyRounds(t testing.TB, rounds, extra string) scenarios.Policy {
	t.Helper()
	src := fmt.Sprintf(`feature: sim
engine:
  preset: llama.cpp
  command: [llama-server, --port, "${PORT}"]
  request: {prompt: p, max_tokens: 8}
arms:
  - name: base
  - name: control
    control: true
  - name: test
    args: [--test]
baseline: base
schedule: {rounds: %s, order: rotate}
gates: {max_spread: 0}
allow_unverified: simulation
unmeasured: [nothing]
%s`, rounds, extra)
	s, _, err := scenarios.Parse("sim.yaml", ".", []byte(src), scenarios.Options{LookupEnv: func(string) (string, bool) { return "", false }})
	if err != nil {
		t.Fatal(err)
	}
	p := s.Policy
	p.AllowUnverified = "" // the verdict rule as for a verified campaign
	p.Stats.Resamples = simResamples
	return p
}

// effects maps an arm to its true multiplicative effect on decode_tok_s;
// value, when set, draws an arm's run value instead.
type campaignSpec struct {
	policy  scenarios.Policy
	host    host
	effects map[string]float64
	value   func(rng *rand.Rand, arm string, center float64) float64
	// valueAt is value with the run's place in the campaign, 0 to 1.
	valueAt func(rng *rand.Rand, arm string, center, pos float64) float64
	// rule is the statistical rule the campaign is analysed by.
	rule schema.Rule
	// model, when set, draws every run's value (hostmodels_test.go),
	// times the arm's effect.
	model *hostModel
}

// simulate runs one campaign and returns its analysis. A sequential
// schedule stops where the harness would: at the first look at which
// analysis.SequentialDone says so.
func simulate(t testing.TB, spec campaignSpec, seed uint64) analysis.Analysis {
	in := simInput(t, spec, seed)
	if !in.Policy.Schedule.Rounds.Sequential() {
		return analysis.Analyze(in)
	}
	arms := len(in.Policy.Arms)
	for _, look := range in.Policy.Schedule.Rounds.Looks() {
		sub := in
		sub.Runs = in.Runs[:look*arms]
		sub.Campaign.Planned = look * arms
		if done, a := analysis.SequentialDone(sub); done {
			return a
		}
	}
	t.Fatal("a sequential schedule did not stop at its last look")
	return analysis.Analysis{}
}

// simInput draws the runs of one campaign of the schedule's maximum
// number of rounds.
func simInput(t testing.TB, spec campaignSpec, seed uint64) analysis.Input {
	rng := rand.New(rand.NewPCG(seed, 77))
	p := spec.policy
	plan, err := harness.Plan(p.ArmNames(), p.Schedule.Rounds.Max, p.Schedule.Order, int64(seed))
	if err != nil {
		t.Fatal(err)
	}
	h := spec.host
	steps := float64(len(plan))
	walk := h.drift / math.Sqrt(steps)
	slope := h.drift * (2*rng.Float64() - 1) / steps
	level := 0.0
	start := time.Unix(0, 0)
	in := analysis.Input{Policy: p, Campaign: analysis.Campaign{Planned: len(plan), Started: start, Rule: mustRule(spec.rule)}}
	var st drawState
	for i, s := range plan {
		level += walk*rng.NormFloat64() + slope
		center := 100 * math.Exp(level)
		var v float64
		switch {
		case spec.model != nil:
			e := spec.effects[s.Arm]
			if e == 0 {
				e = 1
			}
			v = spec.model.draw(rng, s.Arm, center*e, float64(i)/steps, &st)
		case spec.valueAt != nil:
			v = spec.valueAt(rng, s.Arm, center, float64(i)/steps)
		case spec.value != nil:
			v = spec.value(rng, s.Arm, center)
		default:
			e := spec.effects[s.Arm]
			if e == 0 {
				e = 1
			}
			v = center * e * math.Exp(h.cv*rng.NormFloat64())
		}
		if rng.Float64() < h.stall {
			v *= 1 - h.stallCost
		}
		p.Stats.Seed = seed
		in.Runs = append(in.Runs, analysis.Run{Seq: s.Seq, Round: s.Round, Arm: s.Arm, Start: start.Add(time.Duration(i) * 20 * time.Second),
			Metrics: map[string]float64{schema.DecodeTokS: v, schema.WallS: 1}})
	}
	in.Policy = p
	return in
}

// outcome is what a campaign claims about the test arm.
type outcome struct {
	claim       bool // VALID and the test arm significantly different
	dir         int  // sign of the claimed change
	significant bool // the arm's comparison significant, whatever the verdict
	covered     bool // the arm's interval holds the true ratio
	pBelow      bool // the test's p alone below alpha
	// mde is the increase the record states it detects with 80% power;
	// +Inf where it states none (its words: a campaign like this one
	// does not reach that power), so that a median over campaigns ranks
	// it above every stated one instead of below them as a 0.
	mde     float64
	verdict schema.Verdict
	// rounds is the number of rounds a sequential campaign ran; 0 for a
	// fixed one.
	rounds int
}

func outcomeOf(a analysis.Analysis, truth float64) outcome {
	for _, v := range a.ArmVerdicts {
		if v.Arm != "test" {
			continue
		}
		c := v.Comparison
		o := outcome{significant: c.Significant, covered: c.Lo <= truth && truth <= c.Hi, pBelow: c.P < 0.05, mde: stated(v.MDE), verdict: a.Verdict}
		o.claim = a.Verdict == schema.Valid && c.Significant
		if q := a.Sequential; q != nil && len(q.Looks) > 0 {
			o.rounds = q.Looks[len(q.Looks)-1]
		}
		if c.Ratio > 1 {
			o.dir = 1
		} else {
			o.dir = -1
		}
		return o
	}
	return outcome{verdict: a.Verdict, mde: math.Inf(1)}
}

// stated is an MDE as a record states it: +Inf for none (0 in the
// analysis).
func stated(mde float64) float64 {
	if mde > 0 {
		return mde
	}
	return math.Inf(1)
}

type rates struct {
	n                                          int
	claim, right, significant, covered, pBelow float64
	mde                                        []float64
}

func run(t testing.TB, spec campaignSpec, campaigns int, truth float64, seed uint64) rates {
	var r rates
	r.n = campaigns
	for i := range campaigns {
		o := outcomeOf(simulate(t, spec, seed*100000+uint64(i)), truth)
		add := func(b bool, x *float64) {
			if b {
				*x += 1 / float64(campaigns)
			}
		}
		add(o.claim, &r.claim)
		add(o.claim && (o.dir > 0) == (truth > 1), &r.right)
		add(o.significant, &r.significant)
		add(o.covered, &r.covered)
		add(o.pBelow, &r.pBelow)
		r.mde = append(r.mde, o.mde)
	}
	return r
}

func median(xs []float64) float64 {
	s := append([]float64{}, xs...)
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s[len(s)/2]
}

// mustRule resolves a rule the simulation names.
func mustRule(name schema.Rule) analysis.Rule {
	r, err := analysis.RuleOf(name)
	if err != nil {
		panic(err)
	}
	return r
}

// A campaign whose record states no MDE ("does not reach that power")
// ranks above every campaign that states one in the median stated MDE
// the calibration and the audit measure the power at: counted as 0, as
// it once was, nones pulled the median below what the records state.
func TestStatedMDERanksNoneAbove(t *testing.T) {
	analysed := func(mde float64) analysis.Analysis {
		a := analysis.Analysis{Verdict: schema.Valid}
		a.ArmVerdicts = []schema.ArmVerdict{{Arm: "test", MDE: mde, Comparison: schema.Comparison{Ratio: 1, Lo: 0.9, Hi: 1.1, P: 1}}}
		return a
	}
	var mdes []float64
	for _, m := range []float64{0.04, 0, 0.05, 0, 0.06} { // 0: none stated
		mdes = append(mdes, outcomeOf(analysed(m), 1).mde)
	}
	if got := median(mdes); got != 0.06 {
		t.Errorf("median stated MDE of 4%%, 5%%, 6%% and two nones = %v, want 0.06 (the nones above)", got)
	}
	if got := outcomeOf(analysis.Analysis{Verdict: schema.Inconclusive}, 1).mde; !math.IsInf(got, 1) {
		t.Errorf("a campaign without the test arm's verdict states %v, want +Inf (none)", got)
	}
}
