package analysis_test

// Seeded simulations, through the production planner (harness.Plan), the
// per-start input (analysis.FromRecord, which derives a start's value
// from its raw requests) and analysis.Analyze, of campaigns with several
// measured requests per engine start under between-start noise.

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

// nestedHost is a host whose noise has two levels: a draw per engine
// start (CV between) shared by all its requests, and a draw per request
// (CV within); the first request after a start is slower by firstCost.
type nestedHost struct {
	between, within, firstCost float64
	// startS is a start's fixed cost (launch, ready, stop, cooldown),
	// requestS a request's wall time.
	startS, requestS float64
}

// vmHost is the hand measurement on the development VM.
var vmHost = nestedHost{between: 0.0495, within: 0.0291, firstCost: 0.05, startS: 3.6, requestS: 0.6}

func nestedPolicy(t testing.TB, rounds, requests int) scenarios.Policy {
	t.Helper()
	src := fmt.Sprintf(`feature: sim
engine:
  preset: llama.cpp
  command: [llama-server, --port, "${PORT}"]
  request: {prompt: p, max_tokens: 8}
arms:
  - name: base
  - name: test
    args: [--test]
baseline: base
schedule: {rounds: %d, order: rotate, warmup: 1, requests: %d}
gates: {max_spread: 0}
allow_unverified: simulation
unmeasured: [nothing]
`, rounds, requests)
	s, _, err := scenarios.Parse("sim.yaml", ".", []byte(src), scenarios.Options{LookupEnv: func(string) (string, bool) { return "", false }})
	if err != nil {
		t.Fatal(err)
	}
	return s.Policy
}

// nestedCampaign draws one A/A campaign's runs as the harness stores
// them: one run per engine start, its warmup and measured requests kept.
func nestedCampaign(t testing.TB, p scenarios.Policy, h nestedHost, seed uint64) ([]schema.Run, schema.Method) {
	rng := rand.New(rand.NewPCG(seed, 18))
	plan, err := harness.Plan(p.ArmNames(), p.Schedule.Rounds.Max, p.Schedule.Order, int64(seed))
	if err != nil {
		t.Fatal(err)
	}
	started := time.Unix(0, 0)
	m := schema.Method{Planned: harness.Arms(plan), Started: started, Rule: schema.RuleCurrent,
		Warmup: p.Schedule.Warmup, Requests: p.Schedule.Requests}
	var runs []schema.Run
	at := started
	for _, s := range plan {
		level := 100 * math.Exp(h.between*rng.NormFloat64())
		run := schema.Run{Seq: s.Seq, Round: s.Round, Arm: s.Arm, Start: at, ReadyS: h.startS / 2}
		n := p.Schedule.Warmup + p.Schedule.Requests
		for j := range n {
			v := level * math.Exp(h.within*rng.NormFloat64())
			if j == 0 {
				v *= 1 - h.firstCost
			}
			kind := schema.RequestMeasured
			if j < p.Schedule.Warmup {
				kind = schema.RequestWarmup
			}
			wall := h.requestS * math.Exp(h.within*rng.NormFloat64())
			run.Requests = append(run.Requests, schema.ServedRequest{Kind: kind,
				Metrics: map[string]float64{schema.DecodeTokS: v, schema.WallS: wall}})
		}
		run.Metrics = schema.StartMetrics(run.Requests)
		run.Seconds = h.startS + float64(n)*h.requestS
		at = at.Add(time.Duration(run.Seconds * float64(time.Second)))
		runs = append(runs, run)
	}
	return runs, m
}

// pooledAsIndependent is the wrong analysis the per-start one replaces:
// every measured request of a start as a run of its own.
func pooledAsIndependent(runs []schema.Run, m schema.Method) ([]schema.Run, schema.Method) {
	var out []schema.Run
	pm := schema.Method{Started: m.Started, Rule: m.Rule, Warmup: m.Warmup}
	for _, r := range runs {
		for _, q := range r.Requests {
			if q.Kind != schema.RequestMeasured {
				continue
			}
			pm.Planned = append(pm.Planned, r.Arm)
			out = append(out, schema.Run{Seq: len(out) + 1, Round: r.Round, Arm: r.Arm, Start: r.Start, Metrics: q.Metrics})
		}
	}
	return out, pm
}

func testSignificant(a schema.Analysis) bool {
	for _, v := range a.ArmVerdicts {
		if v.Arm == "test" {
			return v.Comparison.Significant
		}
	}
	return false
}

// TestRequestsPerStartFalseClaims: A/A campaigns of 10 rounds with 4
// measured requests per start, on the VM's noise (5% between starts, 3%
// within): analysed per start, false claims stay at most alpha (5%);
// the same requests pooled as independent runs claim a difference far
// more often, because requests of one start share its between-start draw.
func TestRequestsPerStartFalseClaims(t *testing.T) {
	const campaigns = 400
	p := nestedPolicy(t, 10, 4)
	var perStart, pooled float64
	for i := range campaigns {
		runs, m := nestedCampaign(t, p, vmHost, 1800+uint64(i))
		if a, _, _ := analysis.Record(p, runs, m, schema.Schema); testSignificant(a) {
			perStart++
		}
		pr, pm := pooledAsIndependent(runs, m)
		// The contrast is the regression's, which takes runs as
		// independent: a rule that compares round by round averages a
		// round's runs of an arm, so pooling cannot inflate it.
		pm.Rule = schema.RuleRobust3
		pp := p
		pp.Schedule.Requests = 1
		if a, _, _ := analysis.Record(pp, pr, pm, schema.Schema); testSignificant(a) {
			pooled++
		}
	}
	perStart /= campaigns
	pooled /= campaigns
	t.Logf("false claims at alpha 5%%, %d A/A campaigns: per start %.1f%%, requests pooled as independent runs %.1f%%", campaigns, 100*perStart, 100*pooled)
	// 400 campaigns: a binomial standard error of 1.1% at 5%.
	if perStart > 0.05+2*0.011 {
		t.Errorf("per-start analysis: %.1f%% false claims, above alpha", 100*perStart)
	}
	if pooled < 0.15 {
		t.Errorf("pooled as independent: %.1f%% false claims; the contrast should show the inflation", 100*pooled)
	}
}

// TestRequestsPerStartSeesChange: the per-start analysis is not merely
// conservative: a 10% change is found in most campaigns.
func TestRequestsPerStartSeesChange(t *testing.T) {
	const campaigns = 100
	p := nestedPolicy(t, 10, 4)
	found := 0.0
	for i := range campaigns {
		runs, m := nestedCampaign(t, p, vmHost, 2800+uint64(i))
		for k := range runs {
			if runs[k].Arm != "test" {
				continue
			}
			for j := range runs[k].Requests {
				runs[k].Requests[j].Metrics[schema.DecodeTokS] *= 1.10
			}
			runs[k].Metrics = schema.StartMetrics(runs[k].Requests)
		}
		if a, _, _ := analysis.Record(p, runs, m, schema.Schema); testSignificant(a) {
			found++
		}
	}
	if found/campaigns < 0.8 {
		t.Errorf("+10%% found in %.0f%% of campaigns", 100*found/campaigns)
	}
}

// TestAnatomyRecoversNoise: over campaigns of the VM's noise, the
// record's pooled between- and within-start CVs and costs are near the
// truth, and the advice follows from them.
func TestAnatomyRecoversNoise(t *testing.T) {
	const campaigns = 60
	p := nestedPolicy(t, 10, 2)
	var between, within []float64
	for i := range campaigns {
		runs, m := nestedCampaign(t, p, vmHost, 3800+uint64(i))
		a, _, _ := analysis.Record(p, runs, m, schema.Schema)
		an := a.Anatomy
		if an == nil || an.Gap != "" || an.Pooled == nil {
			t.Fatalf("no anatomy: %+v", an)
		}
		between = append(between, an.Pooled.BetweenCV)
		within = append(within, an.Pooled.WithinCV)
		if an.Pooled.Starts != 20 || an.Pooled.PerStart != 3 || len(an.Arms) != 2 {
			t.Fatalf("starts %d, per start %d, arms %d", an.Pooled.Starts, an.Pooled.PerStart, len(an.Arms))
		}
		wantStart := vmHost.startS + vmHost.requestS // the warmup is a start's fixed cost
		if math.Abs(an.Pooled.StartS-wantStart) > 0.15 || math.Abs(an.Pooled.RequestS-vmHost.requestS) > 0.05 {
			t.Fatalf("costs: start %.3f s (want about %.3f), request %.3f s (want about %.3f)", an.Pooled.StartS, wantStart, an.Pooled.RequestS, vmHost.requestS)
		}
		if an.Advice < 1 || an.Advice > analysis.AnatomyAdviceMax {
			t.Fatalf("advice %d out of bounds", an.Advice)
		}
	}
	mb, mw := med(between), med(within)
	t.Logf("median over %d campaigns: between %.2f%% (true %.2f%%), within %.2f%% (true %.2f%%)", campaigns, mb, 100*vmHost.between, mw, 100*vmHost.within)
	if math.Abs(mb-100*vmHost.between) > 1.0 || math.Abs(mw-100*vmHost.within) > 0.5 {
		t.Errorf("anatomy off: between %.2f%%, within %.2f%%", mb, mw)
	}
}

func med(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s[len(s)/2]
}

// TestEveryMeasuredRequestsOutputIsCompared: with several measured
// requests per start, each request's output is compared, not only the
// start's first: a later request of the test arm that differs makes it
// DIVERGENT, and one of the baseline makes identity undecidable.
func TestEveryMeasuredRequestsOutputIsCompared(t *testing.T) {
	p := nestedPolicy(t, 3, 2)
	p.Exactness = &scenarios.ExactnessPolicy{Compare: []string{"test"}, Against: "base", OnMismatch: schema.MismatchReport}
	build := func(baseLater, testLater string) ([]schema.Run, schema.Method) {
		runs, m := nestedCampaign(t, p, vmHost, 7)
		for i := range runs {
			r := &runs[i]
			r.Output = "once upon a time"
			later := testLater
			if r.Arm == "base" {
				later = baseLater
			}
			r.Requests[2].Output = later
		}
		return runs, m
	}
	same, other := "once upon a time", "once upon a tide"
	for _, tc := range []struct {
		base, test string
		want       schema.IdentityVerdict
	}{{same, same, schema.Identical}, {same, other, schema.Divergent}, {other, same, schema.Undecidable}} {
		runs, m := build(tc.base, tc.test)
		a, _, _ := analysis.Record(p, runs, m, schema.Schema)
		if a.Identity == nil || a.Identity.Verdict != tc.want {
			t.Errorf("later requests %q / %q: identity %+v, want %s", tc.base, tc.test, a.Identity, tc.want)
		}
	}
}
