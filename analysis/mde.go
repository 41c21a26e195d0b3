package analysis

import (
	"github.com/decodebench/decodebench/stats"
)

// MDEModel is how a rule states an arm's minimum detectable effect: the
// change a campaign like this one claims with the stated power. Up is the
// increase (new/old − 1), down the decrease (1 − new/old); a model with
// one figure for both returns down 0.
type MDEModel interface {
	mde(m mdeCase) (up, down float64)
}

// SaysNoMDE reports whether records of a rule with this MDE model say so
// when a campaign like theirs does not reach the power (from robust-4
// on); the rules before left an undefined MDE unsaid, and their records
// render as they were written.
func SaysNoMDE(m MDEModel) bool {
	switch m.(type) {
	case BlocksMDE, RoundsMDE:
		return true
	}
	return false
}

// mdeCase is what an arm's MDE may depend on.
type mdeCase struct {
	in  Input
	s   samples
	arm string
	// r is the arm's comparison with its reference; stalls are every
	// comparison's of the campaign, seen the runs of the primary metric
	// they were estimated from.
	r      stats.Robust
	stalls []stats.Stalls
	seen   int
	// level is the arm's alpha (Holm's first step for a test arm), power
	// the power to state it at (the control's veto made up for), looks the
	// rounds of the looks taken.
	level, power, minEffect float64
	looks                   []int
	// design is the arm's sequential design under a rule that spends
	// alpha by the information reached; empty otherwise.
	design stats.Design
}

// NoiseMDE is the MDE of two groups from their robust noise (of the
// per-round ratios when the comparison paired them), at the comparison's
// sample counts (stats.MDE): one figure for both directions.
type NoiseMDE struct{}

func (NoiseMDE) mde(m mdeCase) (up, down float64) {
	p := m.in.Policy
	return stats.MDE(noiseSigma(m.in, m.s, p.Baseline, m.arm, p.Primary, m.r.Paired), m.r.N1, m.r.N2, m.level, m.power, m.r.Paired), 0
}

// noiseSigma is the robust standard deviation of log values behind a
// comparison: of the per-round log ratios when paired, else pooled over
// the two groups.
func noiseSigma(in Input, s samples, ref, arm, metric string, paired bool) float64 {
	if paired {
		b, a, _ := pairs(in, s, ref, arm, metric)
		r := make([]float64, len(b))
		for i := range b {
			r[i] = a[i] / b[i]
		}
		return stats.RobustSigmaLog(r)
	}
	xb, xa := s.values(in, ref, metric), s.values(in, arm, metric)
	return stats.PooledSigma(stats.RobustSigmaLog(xb), len(xb), stats.RobustSigmaLog(xa), len(xa))
}

// RegressionMDE is the MDE from the regression's standard error alone
// (stats.MDERobust1), at MDEPower: the control's veto is not made up for.
type RegressionMDE struct{}

func (RegressionMDE) mde(m mdeCase) (up, down float64) {
	return stats.MDERobust1(m.r.SE, m.r.DF, m.level, MDEPower, m.minEffect)
}

// ModelledMDE models what makes a small campaign miss (stats.MDERobust):
// the runs the stalls of every comparison of the campaign cost or move, at
// the rate they were seen or with its uncertainty; the chance that the
// control's noise vetoes; the looks taken.
type ModelledMDE struct {
	StallRate stats.StallRate
}

func (d ModelledMDE) mde(m mdeCase) (up, down float64) {
	// Stalls are the host's: a comparison of ten runs an arm sees none in
	// a third of the campaigns on a host where one run in twenty stalls.
	r := m.r
	r.Stalls = stats.PoolStalls(m.r.Stalls, m.stalls)
	r.Stalls.Seen = m.seen
	return stats.MDERobust(r, m.level, m.power, m.minEffect, m.looks, d.StallRate)
}
