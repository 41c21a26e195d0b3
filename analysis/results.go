package analysis

import (
	"math"

	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
)

// samples holds, per arm, the indexes of the runs that count for
// statistics: finished, and not dropped as outliers. Adaptive stopping and
// the final statistics use the same samples.
type samples map[string][]int

func newSamples(in Input, marks []schema.Mark) samples {
	s := samples{}
	for i, r := range in.Runs {
		if r.OK() && !marks[i].Dropped {
			s[r.Arm] = append(s[r.Arm], i)
		}
	}
	return s
}

// timed is an arm's values of metric with their places in the plan.
func (s samples) timed(in Input, arm, metric string) []stats.Timed {
	var out []stats.Timed
	for _, i := range s[arm] {
		if v, ok := in.Runs[i].Metrics[metric]; ok {
			out = append(out, stats.Timed{Pos: float64(in.Runs[i].Seq), Value: v, Block: in.Runs[i].Round})
		}
	}
	return out
}

func (s samples) values(in Input, arm, metric string) []float64 {
	var out []float64
	for _, i := range s[arm] {
		if v, ok := in.Runs[i].Metrics[metric]; ok {
			out = append(out, v)
		}
	}
	return out
}

// reported lists the metrics to report, primary first: the primary
// always, any other when at least one finished run measured it (the
// stream metrics exist only on the OpenAI endpoints, a command engine
// reports what its patterns find).
func reported(in Input) []scenarios.MetricPolicy {
	var out []scenarios.MetricPolicy
	for _, m := range in.Policy.Metrics {
		if m.Name == in.Policy.Primary || measured(in, m.Name) {
			out = append(out, m)
		}
	}
	return out
}

func measured(in Input, metric string) bool {
	for _, r := range in.Runs {
		if _, ok := r.Metrics[metric]; ok && r.OK() {
			return true
		}
	}
	return false
}

// outliersOf flags, per arm, the finished runs' values of one metric by
// modified z-score. It returns the run indexes flagged.
func outliersOf(in Input, metric string) map[int]bool {
	byArm := map[string][]int{}
	for i, r := range in.Runs {
		if _, ok := r.Metrics[metric]; ok && r.OK() {
			byArm[r.Arm] = append(byArm[r.Arm], i)
		}
	}
	out := map[int]bool{}
	for _, idx := range byArm {
		xs := make([]float64, len(idx))
		for j, i := range idx {
			xs[j] = in.Runs[i].Metrics[metric]
		}
		for j, f := range stats.Outliers(xs, stats.OutlierThreshold) {
			if f {
				out[idx[j]] = true
			}
		}
	}
	return out
}

// flagOutliers marks the primary metric's outliers, and drops them when the
// policy says outliers: drop.
func flagOutliers(in Input, marks []schema.Mark) {
	for i := range outliersOf(in, in.Policy.Primary) {
		marks[i].Outlier = true
		marks[i].Dropped = in.Policy.Outliers == schema.OutliersDrop
	}
}

func statsConfig(p scenarios.Policy) stats.Config {
	return stats.Config{Confidence: p.Stats.Confidence, Alpha: p.Stats.Alpha, MinEffect: p.Stats.MinEffect, Resamples: p.Stats.Resamples, Seed: p.Stats.Seed}
}

// results computes per-arm statistics and comparisons for every metric.
func results(in Input, s samples, marks []schema.Mark) []schema.MetricResult {
	p, rule := in.Policy, in.Campaign.Rule
	cfg := statsConfig(p)
	alpha, confidence, _ := rule.Looks.levels(in)
	var out []schema.MetricResult
	for _, mp := range reported(in) {
		m := mp.Name
		res := schema.MetricResult{Metric: m, Unit: mp.Unit, Primary: m == p.Primary, HigherIsBetter: mp.HigherIsBetter}
		flagged := outliersOf(in, m)
		for _, arm := range p.ArmNames() {
			xs := s.values(in, arm, m)
			ci := stats.MedianInterval(xs, cfg.Confidence)
			ar := schema.ArmResult{Arm: arm, Summary: schema.Summary(stats.Summarize(xs)), MedianLo: orZero(ci.Lo), MedianHi: orZero(ci.Hi), MedianConfidence: orZero(ci.Confidence)}
			if arm != p.Baseline {
				c := rule.Comparison.store(rule.Comparison.compare(in, s, []string{p.Baseline}, arm, m, alpha, confidence), alpha, p.Stats.MinEffect)
				ar.Comparison = &c
			}
			for i, r := range in.Runs {
				if r.Arm == arm && flagged[i] {
					ar.Outliers++
				}
				if r.Arm == arm && marks[i].Dropped {
					ar.Dropped++
				}
			}
			rule.Drift.fill(in, s, &ar, m)
			res.Arms = append(res.Arms, ar)
		}
		out = append(out, res)
	}
	return out
}

// WidestInterval returns the widest primary-metric ratio interval over the
// arms other than the baseline (its width Hi − Lo; +Inf when one has
// none), for adaptive rounds. It uses the same samples as Analyze.
func WidestInterval(in Input) (float64, string) {
	return widest(in, stats.CIWidth)
}

// widest is the widest of the arms' primary-metric comparisons by width,
// and its arm; +Inf where one is NaN.
func widest(in Input, width func(stats.Result) float64) (float64, string) {
	in = resolved(in)
	p := in.Policy
	m := marks(in)
	flagOutliers(in, m)
	s := newSamples(in, m)
	most, arm := 0.0, ""
	for _, a := range p.Arms {
		if a.Name == p.Baseline {
			continue
		}
		w := width(in.Campaign.Rule.Comparison.compare(in, s, []string{p.Baseline}, a.Name, p.Primary, p.Stats.Alpha, p.Stats.Confidence).Result)
		if math.IsNaN(w) {
			w = math.Inf(1)
		}
		if arm == "" || w > most {
			most, arm = w, a.Name
		}
	}
	return most, arm
}

// WidthPlan is where a schedule that stops on its intervals' width
// stands under a rule that runs it in two stages (Rule.WidthStaged).
type WidthPlan struct {
	// Planned is the rounds the first stage (the schedule's min) plans
	// from its widest interval (First, of FirstArm, relative to its
	// ratio): min where that is narrower than the target, else
	// min·(First/target)² (the first stage's noise over more rounds, at
	// the first stage's t quantile), at most max; max where no interval
	// is defined.
	Planned  int
	First    float64
	FirstArm string
	// Widest is the widest interval relative to its ratio once the
	// planned rounds ran, of Arm (a trimmed round, or a comparison that
	// keeps far rounds in, can leave it wider than the target).
	Widest float64
	Arm    string
	Rounds int  // the rounds run
	Done   bool // the planned rounds ran
}

// PlanWidth is where in's width schedule stands: its rounds planned once
// from the first stage, and run to that (Stein's procedure: the rounds
// run depend on the first stage's noise alone, never on a later round).
// Widths are relative to the ratio, (Hi − Lo)/ratio, which the first
// stage's noise fixes wherever the mean lies. It reads the first stage's
// runs alone for the plan, so a resumed campaign plans what it planned.
func PlanWidth(in Input) WidthPlan {
	r := in.Policy.Schedule.Rounds
	target := float64(r.UntilCIWidth)
	first := in
	first.Runs = nil
	var w WidthPlan
	for _, run := range in.Runs {
		if run.Round <= r.Min {
			first.Runs = append(first.Runs, run)
		}
		w.Rounds = max(w.Rounds, run.Round)
	}
	w.First, w.FirstArm = widestRelative(first)
	switch {
	case w.First <= target:
		w.Planned = r.Min
	case math.IsInf(w.First, 0) || math.IsNaN(w.First):
		w.Planned = r.Max
	default:
		n := math.Ceil(float64(r.Min) * (w.First / target) * (w.First / target))
		w.Planned = int(min(max(n, float64(r.Min)), float64(r.Max)))
	}
	if w.Rounds < w.Planned {
		return w
	}
	w.Widest, w.Arm = widestRelative(in)
	w.Done = true
	return w
}

// widestRelative is the widest of the arms' ratio intervals relative to
// their ratio, (Hi − Lo)/ratio, and its arm; +Inf where one is undefined.
func widestRelative(in Input) (float64, string) {
	return widest(in, func(c stats.Result) float64 {
		if !(c.Ratio > 0) {
			return math.Inf(1)
		}
		return stats.CIWidth(c) / c.Ratio
	})
}

// metricsWithoutValue names the scenario's own metrics that no finished
// run has a value for: a misspelled source, or an expression whose input
// never came, would otherwise leave no trace in the record.
func metricsWithoutValue(in Input) []schema.Reason {
	finished := countOK(in.Runs)
	if finished == 0 {
		return nil
	}
	var out []schema.Reason
	for _, m := range in.Policy.Metrics {
		if m.Extra == nil {
			continue
		}
		has := false
		for _, r := range in.Runs {
			if _, ok := r.Metrics[m.Name]; ok && r.OK() {
				has = true
				break
			}
		}
		if !has {
			out = append(out, schema.MetricNoValue{Metric: m.Name, Runs: finished})
		}
	}
	return out
}
