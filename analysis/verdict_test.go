package analysis

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// policy is a campaign of the given arms (the first is the baseline; a
// name starting with "ctl" is a negative control) with one counter c.
func policy(arms ...string) scenarios.Policy {
	p := scenarios.Policy{Baseline: arms[0], Primary: schema.DecodeTokS,
		Stats: scenarios.StatsPolicy{Confidence: 0.95, Alpha: 0.05, MinEffect: 0.01, Resamples: 2000, Seed: 1}}
	c := scenarios.CounterPolicy{Name: "c", Kind: schema.SourceMetric, Expr: "llamacpp:spec_decode_num_draft_total", Expect: map[string]scenarios.Expectation{}}
	zero, _ := scenarios.ParseExpectation("== 0")
	pos, _ := scenarios.ParseExpectation("> 0")
	for i, a := range arms {
		ctl := len(a) >= 3 && a[:3] == "ctl"
		p.Arms = append(p.Arms, scenarios.ArmPolicy{Name: a, Control: ctl})
		if i == 0 || ctl {
			c.Expect[a] = zero
		} else {
			c.Expect[a] = pos
		}
	}
	p.Counters = []scenarios.CounterPolicy{c}
	return p
}

// campaign builds rotated rounds; value gives each run's primary metric,
// counter its counter reading.
func campaign(p scenarios.Policy, rounds int, value func(arm string, round int) float64, counter func(arm string) Reading) Input {
	in := Input{Policy: p, Campaign: Campaign{Planned: rounds * len(p.Arms), Started: time.Unix(0, 0)}}
	seq := 0
	for r := 1; r <= rounds; r++ {
		for i := range p.Arms {
			a := p.Arms[(i+r)%len(p.Arms)].Name
			seq++
			in.Runs = append(in.Runs, Run{Seq: seq, Round: r, Arm: a, Start: time.Unix(int64(seq*10), 0),
				Metrics:  map[string]float64{schema.DecodeTokS: value(a, r), schema.WallS: 1 + 0.001*float64(r)},
				Counters: map[string]Reading{"c": counter(a)}})
		}
	}
	return in
}

func first(rs schema.Reasons) schema.Reason {
	if len(rs) == 0 {
		return nil
	}
	return rs[0]
}

var wobble = []float64{0, 0.4, -0.3, 0.2, -0.1, 0.3, -0.2, 0.1, -0.4, 0.05}

func level(base map[string]float64) func(string, int) float64 {
	return func(a string, r int) float64 { return base[a] * (1 + wobble[r%len(wobble)]/100) }
}

func honest(a string) Reading {
	if a == "a" || a[:min(3, len(a))] == "ctl" {
		return Reading{Value: 0}
	}
	return Reading{Value: 5}
}

// A counter whose source no run of any arm could read is a scenario error
// named first, not a zero that makes the test arm look as if it never ran.
func TestAbsentSourceIsAScenarioError(t *testing.T) {
	p := policy("a", "b")
	in := campaign(p, 6, level(map[string]float64{"a": 100, "b": 110}), func(string) Reading { return Reading{Absent: true} })
	a := Analyze(in)
	if r, ok := first(a.Reasons).(schema.SourceAbsent); a.Verdict != schema.Failed || !ok || r.Source != "llamacpp:spec_decode_num_draft_total" {
		t.Fatalf("verdict %s, reasons %+v", a.Verdict, a.Reasons)
	}
	// Absent only where the arm has nothing to report (llama-server omits
	// draft_n when it does not draft): read as 0, legitimately.
	in = campaign(p, 6, level(map[string]float64{"a": 100, "b": 110}), func(arm string) Reading {
		if arm == "a" {
			return Reading{Absent: true}
		}
		return Reading{Value: 5}
	})
	if a := Analyze(in); a.Verdict != schema.Valid {
		t.Fatalf("absent in the baseline only: %s %+v", a.Verdict, a.Reasons)
	}
	// The loop's fail-fast check and the analysis agree.
	if f := CounterFailures(p, Run{Arm: "b", Counters: map[string]Reading{"c": {Value: 0}}}); len(f) != 1 || f[0].Code() != (schema.CounterFailed{}).Code() {
		t.Fatalf("CounterFailures: %+v", f)
	}
}

// A negative control that differs from its baseline makes the campaign
// INCONCLUSIVE, said first.
func TestControlThatDiffersIsInconclusive(t *testing.T) {
	p := policy("a", "ctl", "b")
	in := campaign(p, 8, level(map[string]float64{"a": 100, "ctl": 94, "b": 110}), honest)
	a := Analyze(in)
	if r, ok := first(a.Reasons).(schema.ControlDiffers); a.Verdict != schema.Inconclusive || !ok || r.Arm != "ctl" || math.Abs(r.Ratio-0.94) > 0.01 {
		t.Fatalf("verdict %s, reasons %+v", a.Verdict, a.Reasons)
	}
	in = campaign(p, 8, level(map[string]float64{"a": 100, "ctl": 100.1, "b": 110}), honest)
	a = Analyze(in)
	if a.Verdict != schema.Valid {
		t.Fatalf("quiet control: %s %+v", a.Verdict, a.Reasons)
	}
	for _, v := range a.ArmVerdicts {
		if v.Arm == "b" && (!v.SeparatesFromNoise || v.VsControl == nil || !v.VsControl.Significant || v.MDE <= 0) {
			t.Errorf("b: %+v", v)
		}
	}
}

// Several test arms: Holm-adjusted p-values, the family stated.
func TestFamilyWiseAdjustment(t *testing.T) {
	p := policy("a", "b", "c")
	in := campaign(p, 6, level(map[string]float64{"a": 100, "b": 110, "c": 120}), honest)
	a := Analyze(in)
	if a.FamilySize != 2 || a.FamilyAlpha != 0.05 {
		t.Fatalf("family %d at %g", a.FamilySize, a.FamilyAlpha)
	}
	for _, v := range a.ArmVerdicts {
		if v.Comparison.AdjustedP < v.Comparison.P || v.Comparison.AdjustedP == 0 {
			t.Errorf("%s: p %g adjusted %g", v.Arm, v.Comparison.P, v.Comparison.AdjustedP)
		}
		if v.MDEAlpha != 0.025 {
			t.Errorf("%s: MDE at alpha %g, want 0.025", v.Arm, v.MDEAlpha)
		}
	}
}

// Outliers are counted per metric (item 12), and with outliers: drop the
// adaptive stopping rule reads the same samples as the final statistics
// (item 13).
func TestOutliersPerMetricAndSameSamples(t *testing.T) {
	p := policy("a", "b")
	in := campaign(p, 8, level(map[string]float64{"a": 100, "b": 110}), honest)
	in.Runs[2].Metrics[schema.WallS] = 50 // an outlier of wall_s only
	a := Analyze(in)
	for _, m := range a.Results {
		total := 0
		for _, ar := range m.Arms {
			total += ar.Outliers
		}
		want := 0
		if m.Metric == schema.WallS {
			want = 1
		}
		if total != want {
			t.Errorf("%s: %d outliers, want %d", m.Metric, total, want)
		}
	}
	p.Outliers = schema.OutliersDrop
	in = campaign(p, 8, level(map[string]float64{"a": 100, "b": 110}), honest)
	in.Runs[3].Metrics[schema.DecodeTokS] = 300 // a primary outlier, dropped
	a = Analyze(in)
	w, arm := WidestInterval(in)
	for _, v := range a.ArmVerdicts {
		if v.Arm == arm && math.Abs((v.Comparison.Hi-v.Comparison.Lo)-w) > 1e-12 {
			t.Errorf("adaptive width %g, final interval width %g", w, v.Comparison.Hi-v.Comparison.Lo)
		}
	}
}

// An interrupted campaign in which only the baseline ran, and whose
// counter source is absent in it (llama-server omits draft_n when it does
// not draft), is INCOMPLETE, not a scenario error: the arm that would
// read the source never ran.
func TestAbsentSourceNeedsEveryArm(t *testing.T) {
	in := campaign(policy("a", "b"), 6, level(map[string]float64{"a": 100, "b": 110}), func(string) Reading { return Reading{Absent: true} })
	for _, r := range in.Runs {
		if r.Arm == "a" {
			in.Runs = []Run{r} // the baseline alone ran before the interrupt
			break
		}
	}
	in.Campaign.Interrupted = true
	if a := Analyze(in); a.Verdict != schema.Incomplete {
		t.Errorf("verdict %s, reasons %+v", a.Verdict, a.Reasons)
	}
}

// A budgeted sequential campaign that stopped before its first look (its
// first run failed, with the budget's plan already made) is analysed, not
// a panic: the H200 demo run whose warmup the engine refused crashed here.
func TestBudgetedCampaignBeforeItsFirstLook(t *testing.T) {
	p := policy("a", "b")
	p.Schedule.Rounds = scenarios.Rounds{Min: 5, Max: 10, Every: 5, MaxTime: scenarios.Duration{Duration: 10 * time.Minute}}
	rule, err := RuleOf(schema.RuleCurrent)
	if err != nil {
		t.Fatal(err)
	}
	for _, rounds := range []int{0, 1} {
		in := campaign(p, rounds, level(map[string]float64{"a": 100, "b": 110}), honest)
		in.Campaign.Rule, in.Campaign.PlannedRounds = rule, []int{8}
		in.Runs = append(in.Runs, Run{Seq: len(in.Runs) + 1, Round: rounds + 1, Arm: "a", Start: time.Unix(1000, 0), Error: "warmup request 1: engine reported an error"})
		if a := Analyze(in); a.Verdict == schema.Valid {
			t.Errorf("%d rounds: verdict %s", rounds, a.Verdict)
		}
	}
}

// A campaign whose baseline reported 0 for the primary metric in every
// run compared nothing: INCONCLUSIVE, naming the arm, under the current
// rule and the first, never VALID beside "no comparison could be made".
func TestNothingComparedIsNotValid(t *testing.T) {
	for _, rule := range []schema.Rule{schema.RuleCurrent, schema.RuleRobust3} {
		p := policy("a", "b")
		in := campaign(p, 6, level(map[string]float64{"a": 0, "b": 110}), honest)
		in.Campaign.Rule = rules[rule]
		a := Analyze(in)
		if a.Verdict != schema.Inconclusive || !slices.Contains(a.Reasons, schema.Reason(schema.NoComparison{Arm: "b", Metric: schema.DecodeTokS})) {
			t.Errorf("%s: verdict %s, reasons %+v", rule, a.Verdict, a.Reasons)
		}
	}
}
