package analysis

import (
	"math"

	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
)

// DriftTest is how a rule measures an arm's drift over the campaign and
// when it flags it.
type DriftTest interface {
	// fill sets an arm result's drift for metric.
	fill(in Input, s samples, ar *schema.ArmResult, metric string)
	// flag is the flag an arm's drift raises under max_drift; nil when
	// none.
	flag(a schema.ArmResult, baseline string, maxDrift float64) schema.Reason
}

// RankDrift is an arm's own change from the first to the last third of
// the campaign, with its rank correlation with time (stats.DriftOf);
// flagged past max_drift when the correlation is strong.
type RankDrift struct{}

func (RankDrift) fill(in Input, s samples, ar *schema.ArmResult, metric string) {
	var ts, vs []float64
	for _, i := range s[ar.Arm] {
		if v, ok := in.Runs[i].Metrics[metric]; ok {
			ts = append(ts, in.Runs[i].Start.Sub(in.Campaign.Started).Seconds())
			vs = append(vs, v)
		}
	}
	d := stats.DriftOf(ts, vs)
	ar.Drift, ar.DriftRho = orZero(d.Change), orZero(d.Rho)
}

func (RankDrift) flag(a schema.ArmResult, _ string, maxDrift float64) schema.Reason {
	if maxDrift > 0 && (stats.Drift{N: a.N, Change: a.Drift, Rho: a.DriftRho}).Flagged(maxDrift) {
		return schema.Drift{Arm: a.Arm, Change: a.Drift, Rho: a.DriftRho}
	}
	return nil
}

// RelativeDrift is the baseline's own trend over the campaign and, for any
// other arm, its trend relative to the baseline's (stats.TrendDifference):
// a drift of that arm alone, which interleaving does not cancel. Flagged
// when significant at Alpha and at least max_drift.
type RelativeDrift struct {
	Alpha float64
}

// DriftAlpha is the level of the relative-trend test that flags drift.
const DriftAlpha = 0.05

func (RelativeDrift) fill(in Input, s samples, ar *schema.ArmResult, metric string) {
	base := s.timed(in, in.Policy.Baseline, metric)
	var t stats.RelativeTrend
	if ar.Arm == in.Policy.Baseline {
		t = stats.Trend(base)
	} else {
		t = stats.TrendDifference(base, s.timed(in, ar.Arm, metric))
	}
	ar.Drift, ar.DriftP = orZero(t.Change), orZero(t.P)
}

func (d RelativeDrift) flag(a schema.ArmResult, baseline string, maxDrift float64) schema.Reason {
	if a.Arm != baseline && maxDrift > 0 && a.DriftP > 0 && a.DriftP < d.Alpha && math.Abs(a.Drift) >= maxDrift {
		return schema.RelativeDrift{Arm: a.Arm, Baseline: baseline, Change: a.Drift, P: a.DriftP, Alpha: d.Alpha}
	}
	return nil
}
