package harness

import (
	"fmt"
	"math"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/stats"
)

// statsConfig is the comparison configuration the scenario asks for. The
// bootstrap is seeded from the schedule's seed so that a record can be
// recomputed exactly from its raw runs.
func (c *campaign) statsConfig() stats.Config {
	s := c.scenario
	return stats.Config{
		Confidence: float64(s.Stats.Confidence),
		Alpha:      float64(s.Stats.Alpha),
		MinEffect:  float64(s.Stats.MinEffect),
		Resamples:  10000,
		Seed:       uint64(s.Schedule.Seed) + 1,
	}
}

// samples returns, per arm, the runs that count for statistics: finished,
// and not dropped as outliers.
func (c *campaign) samples() map[string][]*recorder.Run {
	out := map[string][]*recorder.Run{}
	for i := range c.rec.Runs {
		r := &c.rec.Runs[i]
		if r.OK() && !r.Dropped {
			out[r.Arm] = append(out[r.Arm], r)
		}
	}
	return out
}

func values(runs []*recorder.Run, metric string) []float64 {
	var out []float64
	for _, r := range runs {
		if v, ok := r.Metrics[metric]; ok {
			out = append(out, v)
		}
	}
	return out
}

// flagOutliers marks each arm's primary-metric outliers by modified
// z-score, and drops them when the scenario says outliers: drop.
func (c *campaign) flagOutliers() {
	s := c.scenario
	byArm := map[string][]*recorder.Run{}
	for i := range c.rec.Runs {
		r := &c.rec.Runs[i]
		r.Outlier, r.Dropped = false, false
		if _, ok := r.Metrics[s.Metrics.Primary]; ok && r.OK() {
			byArm[r.Arm] = append(byArm[r.Arm], r)
		}
	}
	for _, runs := range byArm {
		flags := stats.Outliers(values(runs, s.Metrics.Primary), stats.OutlierThreshold)
		for i, f := range flags {
			runs[i].Outlier = f
			runs[i].Dropped = f && s.Outliers == "drop"
		}
	}
}

// results computes per-arm statistics and comparisons for every metric,
// primary first.
func (c *campaign) results() []recorder.MetricResult {
	s := c.scenario
	metrics := []string{s.Metrics.Primary}
	for _, m := range scenarios.MetricNames {
		if m != s.Metrics.Primary {
			metrics = append(metrics, m)
		}
	}
	byArm := c.samples()
	cfg := c.statsConfig()
	var out []recorder.MetricResult
	for _, m := range metrics {
		res := recorder.MetricResult{Metric: m, Unit: scenarios.Unit(m), Primary: m == s.Metrics.Primary, HigherIsBetter: scenarios.HigherIsBetter(m)}
		base := values(byArm[s.Baseline], m)
		for _, arm := range s.ArmNames() {
			xs := values(byArm[arm], m)
			sum := stats.Summarize(xs)
			ci := stats.MedianInterval(xs, cfg.Confidence)
			ar := recorder.ArmResult{Arm: arm, Summary: sum, MedianLo: finite(ci.Lo), MedianHi: finite(ci.Hi), MedianConfidence: finite(ci.Confidence), Ratio: 1}
			if arm != s.Baseline {
				cmp := stats.Compare(base, xs, cfg)
				ar.Ratio, ar.RatioLo, ar.RatioHi = finite(cmp.Ratio), finite(cmp.Lo), finite(cmp.Hi)
				ar.P, ar.Significant = finite(cmp.P), cmp.Significant
				ar.Sentence = stats.Sentence(cmp, res.HigherIsBetter)
			}
			for _, r := range c.rec.Runs {
				if r.Arm == arm && r.Outlier && m == s.Metrics.Primary {
					ar.Outliers++
					if r.Dropped {
						ar.Dropped++
					}
				}
			}
			var ts, vs []float64
			for _, r := range byArm[arm] {
				if v, ok := r.Metrics[m]; ok {
					ts = append(ts, r.Start.Sub(c.rec.Method.Started).Seconds())
					vs = append(vs, v)
				}
			}
			d := stats.DriftOf(ts, vs)
			ar.Drift, ar.DriftRho = finite(d.Change), finite(d.Rho)
			res.Arms = append(res.Arms, ar)
		}
		out = append(out, res)
	}
	return out
}

// armVerdicts states, per arm, the primary-metric verdict against the
// baseline and, when the campaign has a control arm, whether the arm
// separates from the control's noise floor.
func (c *campaign) armVerdicts() []recorder.ArmVerdict {
	s := c.scenario
	byArm := c.samples()
	cfg := c.statsConfig()
	base := values(byArm[s.Baseline], s.Metrics.Primary)
	var control *stats.Comparison
	controlName := ""
	for _, a := range s.Arms {
		if a.Control {
			cmp := stats.Compare(base, values(byArm[a.Name], s.Metrics.Primary), cfg)
			control, controlName = &cmp, a.Name
			break
		}
	}
	var out []recorder.ArmVerdict
	for _, a := range s.Arms {
		if a.Name == s.Baseline {
			continue
		}
		cmp := stats.Compare(base, values(byArm[a.Name], s.Metrics.Primary), cfg)
		for _, w := range cmp.Warnings {
			c.rec.Warnings = append(c.rec.Warnings, fmt.Sprintf("`%s` vs `%s`: %s.", a.Name, s.Baseline, w))
		}
		v := recorder.ArmVerdict{Arm: a.Name, Control: a.Control, Sentence: fmt.Sprintf("`%s` vs `%s`: %s", a.Name, s.Baseline, stats.Sentence(cmp, scenarios.HigherIsBetter(s.Metrics.Primary)))}
		if a.Control {
			v.Sentence += fmt.Sprintf(" — negative control: this is the method's noise floor (ratio %.4f [%.4f, %.4f])", cmp.Ratio, cmp.Lo, cmp.Hi)
		} else if control != nil {
			sep := stats.SeparatesFromNoise(cmp, *control)
			v.SeparatesFromNoise = &sep
			word := "no"
			if sep {
				word = "yes"
			}
			v.Sentence += fmt.Sprintf("; separates from noise (control `%s`): %s", controlName, word)
		}
		out = append(out, v)
	}
	return out
}

// widestInterval returns the widest primary-metric ratio interval over the
// non-baseline arms (relative width), for adaptive rounds.
func (c *campaign) widestInterval() (float64, string) {
	s := c.scenario
	byArm := c.samples()
	base := values(byArm[s.Baseline], s.Metrics.Primary)
	widest, arm := 0.0, ""
	for _, a := range s.Arms {
		if a.Name == s.Baseline {
			continue
		}
		w := stats.CIWidth(stats.Compare(base, values(byArm[a.Name], s.Metrics.Primary), c.statsConfig()))
		if math.IsNaN(w) {
			w = math.Inf(1)
		}
		if arm == "" || w > widest {
			widest, arm = w, a.Name
		}
	}
	return widest, arm
}

// finite keeps NaN and ±Inf out of the record: JSON cannot carry them.
func finite(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}
