package analysis

import (
	"math"

	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
)

// RoundBlocks compares each arm with its reference round by round
// (stats.CompareBlocks): a host step, autocorrelated noise or a drift
// common to the arms cancels within each round, each arm keeps its own
// variance, a round is trimmed as a stall only when it is at least
// stats.StallFloor off, and the comparison is refused when more than a
// quarter of its rounds are far out.
type RoundBlocks struct {
	// Trim is how the stalls the robust scale found are confirmed.
	Trim stats.RoundTrim
	// Refused is what a refused comparison states as its estimate,
	// interval and p.
	Refused stats.RefusedEstimate
	// FarKept is what a comparison that keeps far rounds in states as
	// its interval and p.
	FarKept stats.FarKept
	// Stage is how a schedule that stops on its intervals' width takes
	// its noise (and the harness plans its rounds: WidthStaged).
	Stage stats.WidthStage
}

// stallSign is which way a stall moves the metric's values: down for a
// rate, up for a time (stats.Config.StallSign).
func stallSign(p scenarios.Policy, metric string) int {
	for _, m := range p.Metrics {
		if m.Name == metric {
			if m.HigherIsBetter {
				return -1
			}
			return 1
		}
	}
	return 0
}

// WidthStaged reports a rule whose schedules that stop on their
// intervals' width run in two stages: the rounds after min planned once
// from min's widest interval, the comparisons taking min's noise
// (stats.StageStein).
func (r Rule) WidthStaged() bool {
	b, ok := r.Comparison.(RoundBlocks)
	return ok && b.Stage == stats.StageStein
}

func (b RoundBlocks) compare(in Input, s samples, refs []string, arm, metric string, alpha, confidence float64) stats.Robust {
	cfg := statsConfig(in.Policy)
	cfg.Alpha, cfg.Confidence = alpha, confidence
	var ref []stats.Timed
	for _, r := range refs {
		ref = append(ref, s.timed(in, r, metric)...)
	}
	a := s.timed(in, arm, metric)
	cfg.StallSign = stallSign(in.Policy, metric)
	r := stats.CompareRounds(ref, a, cfg, b.Trim)
	if rounds := in.Policy.Schedule.Rounds; rounds.WidthStops() {
		r = b.Stage.Restate(r, ref, a, cfg, rounds.Min)
	}
	return b.FarKept.Restate(b.Refused.Restate(r, ref, a, cfg), ref, a, cfg)
}

func (RoundBlocks) store(r stats.Robust, alpha, minEffect float64) schema.Comparison {
	c := comparison(r.Result)
	c.Trimmed, c.Robust, c.Blocks = r.Trimmed1+r.Trimmed2, true, r.Blocks
	c.Disagreement = disagreement(c, alpha, minEffect)
	return c
}

// tooFew: a comparison by round needs enough rounds of each arm to trim a
// stall.
func (RoundBlocks) tooFew(in Input, s samples, ref, arm string, _ float64) schema.Reason {
	if n1, n2 := len(s.values(in, ref, in.Policy.Primary)), len(s.values(in, arm, in.Policy.Primary)); min(n1, n2) < RobustMinRuns {
		return schema.TooFewRuns{Arm: arm, N1: n1, N2: n2, Min: RobustMinRuns}
	}
	return nil
}

// BlocksMDE is the MDE of a comparison by round (stats.MDEBlocks): the
// noise of the rounds' differences, the stalls every comparison of the
// campaign saw (at the rate seen, or with its uncertainty), the chance of
// a refusal, the control's veto and the looks' spending design.
type BlocksMDE struct {
	StallRate stats.StallRate
}

func (b BlocksMDE) mde(m mdeCase) (up, down float64) {
	return stats.MDEBlocks(m.r, m.stalls, 0, b.StallRate == stats.StallRateUncertain, m.level, m.power, m.minEffect, m.design)
}

// RoundsMDE is the MDE of a comparison by round whose stalls are
// confirmed one at a time (stats.MDERounds): the far rounds, the
// refusals and the rounds trimmed drawn from the rate's posterior; the
// far rounds kept in as Kept models them.
type RoundsMDE struct {
	Kept stats.KeptModel
}

func (r RoundsMDE) mde(m mdeCase) (up, down float64) {
	if m.r.Staged {
		return stats.StagedMDE(m.r, m.level, m.power, m.minEffect)
	}
	return stats.MDERoundsKept(m.r, m.stalls, m.level, m.power, m.minEffect, m.design, r.Kept)
}

// BlockDrift is the baseline's own trend over the campaign and, for any
// other arm, its trend relative to the baseline's (stats.TrendDifference:
// every run of both arms in one fit with a common trend and the arm's own,
// whose degrees of freedom find an arm's drift more often than the rounds'
// differences alone do); flagged when significant at Alpha and at least
// max_drift, with the arm's change at the campaign's start and end.
type BlockDrift struct {
	Alpha float64
	// Welch (rule robust-15) fits each arm its own line and noise
	// (stats.TrendWelch): the pooled fit took a noisier arm's tail for
	// stalls and the baseline's noise for both (10% of A/A arms of CV 6%
	// against 1.5% flagged), and a flag holds a sequential look from
	// stopping.
	Welch bool
}

func (d BlockDrift) fill(in Input, s samples, ar *schema.ArmResult, metric string) {
	base := s.timed(in, in.Policy.Baseline, metric)
	var t stats.RelativeTrend
	switch {
	case ar.Arm == in.Policy.Baseline:
		t = stats.Trend(base)
	case d.Welch:
		t = stats.TrendWelch(base, s.timed(in, ar.Arm, metric))
	default:
		t = stats.TrendDifference(base, s.timed(in, ar.Arm, metric))
	}
	ar.Drift, ar.DriftP = orZero(t.Change), orZero(t.P)
}

func (d BlockDrift) flag(a schema.ArmResult, baseline string, maxDrift float64) schema.Reason {
	if a.Arm == baseline || maxDrift <= 0 || a.DriftP <= 0 || a.DriftP >= d.Alpha || math.Abs(a.Drift) < maxDrift {
		return nil
	}
	r := schema.RelativeDrift{Arm: a.Arm, Baseline: baseline, Change: a.Drift, P: a.DriftP, Alpha: d.Alpha}
	if c := a.Comparison; c != nil && c.Defined() {
		// The change over the campaign is split about its middle: the
		// average ratio is the middle's.
		half := math.Sqrt(1 + a.Drift)
		r.Start, r.End = orZero(c.Ratio/half-1), orZero(c.Ratio*half-1)
	}
	return r
}
