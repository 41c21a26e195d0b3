package analysis

import (
	"math"
	"slices"

	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
)

// AnatomyAdviceMax bounds the advised number of measured requests per
// start: past it the advice would only say "as many as you like", and the
// estimate of a between-start variance near 0 is too rough to aim at.
const AnatomyAdviceMax = 16

// anatomyMinStarts is the fewest starts of an arm (each with every
// request) that give a between-start variance worth stating.
const anatomyMinStarts = 3

// noiseAnatomy estimates where the primary metric's noise comes from, from
// the requests every finished start served (warmups and measured ones,
// which are the same request), as a two-level nested design: starts, and
// requests within a start. Per arm, on log values y[i][j] (start i,
// request position j), a two-way layout with the start random and the
// position fixed (a first request after a start may be systematically
// slower: its mean is taken out, not counted as noise):
//
//	within  = Σ(y_ij − ȳ_i. − ȳ_.j + ȳ..)² / ((S−1)(P−1))
//	between = max(0, (P·Σ(ȳ_i. − ȳ..)²/(S−1) − within) / P)
//
// Pooled: the arms' sums of squares and degrees of freedom added. The
// costs are medians: a request's wall time, and a start's fixed cost (its
// whole time and the cooldown before it, less its measured requests). The
// advice is the whole k in 1..AnatomyAdviceMax that minimises
// (between + within/k)·(start + k·request), the variance of an arm's mean
// times the campaign time it takes, whose continuous optimum is
// k* = sqrt((start/request)·(within/between)). Where some start sent its
// last warmup whole for its token ids (schema.ServedRequest.Whole), it has
// no streamed figures, and that position is left out of every start.
// Nil for records from before (Campaign.Requests 0).
func noiseAnatomy(in Input) *schema.Anatomy {
	c := in.Campaign
	if c.Requests == 0 {
		return nil
	}
	an := &schema.Anatomy{Metric: in.Policy.Primary, Requests: c.Requests, Warmup: c.Warmup}
	switch {
	case c.Command:
		an.Gap = schema.AnatomyCommand
		return an
	case c.Warmup+c.Requests < 2:
		an.Gap = schema.AnatomyOneRequest
		return an
	case !perRequest(in.Policy.Primary):
		an.Gap = schema.AnatomyNotPerRequest
		return an
	}
	per, skip := c.Warmup+c.Requests, -1
	if wholeWarmup(in.Runs) {
		// The last warmup of some start went whole for its token ids and
		// has no streamed figures: that position is left out of every
		// start, so that the starts keep one layout.
		per, skip = per-1, c.Warmup-1
		an.LastWarmupLeftOut = true
		if per < 2 {
			an.Gap = schema.AnatomyOneRequest
			return an
		}
	}
	var pooled anatomySums
	for _, arm := range in.Policy.ArmNames() {
		sums := armAnatomy(in, arm, per, skip)
		if sums.starts < anatomyMinStarts {
			an.Gap, an.Arms, an.Pooled = schema.AnatomyFewStarts, nil, nil
			return an
		}
		an.Arms = append(an.Arms, sums.figures(arm))
		pooled.add(sums)
	}
	p := pooled.figures("")
	an.Pooled = &p
	an.AdviceMax = AnatomyAdviceMax
	an.Optimum, an.Unbounded = optimumRequests(p)
	an.ReplayBelow = replayBelow(an)
	an.Advice = bestRequests(p, an.ReplayBelow)
	if now := campaignVariance(p, c.Requests, an.ReplayBelow); now > 0 {
		an.WidthChange = math.Sqrt(campaignVariance(p, an.Advice, an.ReplayBelow)/now) - 1
	}
	return an
}

// perRequest reports whether the client measures metric for every
// request (what a served request records), not over the window.
func perRequest(metric string) bool {
	switch metric {
	case schema.TTFTms, schema.WallS, schema.DecodeTokS, schema.E2ETokS, schema.TPOTms,
		schema.StepTokS, schema.ITLp50ms, schema.ITLp90ms, schema.ITLp99ms:
		return true
	}
	return false
}

// anatomySums are the sums of squares, degrees of freedom and costs of
// one arm, or of arms pooled.
type anatomySums struct {
	starts, per                int
	ssWithin, ssBetween        float64 // ssBetween = P·Σ(ȳ_i. − ȳ..)²
	dfWithin, dfBetween        int
	ready, startCost, requestS []float64
}

func (s *anatomySums) add(o anatomySums) {
	s.starts += o.starts
	s.per = o.per
	s.ssWithin += o.ssWithin
	s.ssBetween += o.ssBetween
	s.dfWithin += o.dfWithin
	s.dfBetween += o.dfBetween
	s.ready = append(s.ready, o.ready...)
	s.startCost = append(s.startCost, o.startCost...)
	s.requestS = append(s.requestS, o.requestS...)
}

func (s anatomySums) figures(arm string) schema.AnatomyFigures {
	f := schema.AnatomyFigures{Arm: arm, Starts: s.starts, PerStart: s.per,
		ReadyS: orZero(stats.Median(s.ready)), StartS: orZero(stats.Median(s.startCost)), RequestS: orZero(stats.Median(s.requestS))}
	if s.dfWithin > 0 {
		f.WithinVar = roundoff(s.ssWithin / float64(s.dfWithin))
	}
	if s.dfBetween > 0 && s.per > 0 {
		f.BetweenVar = roundoff(math.Max(0, (s.ssBetween/float64(s.dfBetween)-f.WithinVar)/float64(s.per)))
	}
	f.WithinCV, f.BetweenCV = logCV(f.WithinVar), logCV(f.BetweenVar)
	return f
}

// roundoff is v, or 0 where it is below what the arithmetic of equal
// values leaves (a variance of logs under 1e-18, a CV of 1e-7%).
func roundoff(v float64) float64 {
	if v < 1e-18 {
		return 0
	}
	return v
}

// logCV is the coefficient of variation, %, of a log-normal variable whose
// log has variance v.
func logCV(v float64) float64 { return 100 * math.Sqrt(math.Expm1(v)) }

// wholeWarmup reports whether some run sent a warmup whole
// (schema.ServedRequest.Whole).
func wholeWarmup(runs []Run) bool {
	for _, r := range runs {
		for _, q := range r.Served {
			if q.Whole {
				return true
			}
		}
	}
	return false
}

// armAnatomy gathers one arm's finished starts that served every request
// with a positive value of the primary metric, the request at index skip
// (if any) left out.
func armAnatomy(in Input, arm string, per, skip int) anatomySums {
	s := anatomySums{per: per}
	var rows [][]float64
	served := per
	if skip >= 0 {
		served++
	}
	for _, r := range in.Runs {
		if r.Arm != arm || !r.OK() || len(r.Served) != served {
			continue
		}
		row := make([]float64, 0, per)
		measuredS := 0.0
		for i, q := range r.Served {
			if i == skip {
				continue
			}
			v := q.Metrics[in.Policy.Primary]
			if !(v > 0) {
				break
			}
			row = append(row, math.Log(v))
			if q.Kind == schema.RequestMeasured {
				w := q.Metrics[schema.WallS]
				measuredS += w
				s.requestS = append(s.requestS, w)
			}
		}
		if len(row) != per {
			continue
		}
		rows = append(rows, row)
		s.ready = append(s.ready, r.ReadyS)
		s.startCost = append(s.startCost, math.Max(0, r.Seconds+r.CooldownS-measuredS))
	}
	s.starts = len(rows)
	if s.starts < 2 {
		return s
	}
	rowMean := make([]float64, s.starts)
	colMean := make([]float64, per)
	grand := 0.0
	for i, row := range rows {
		for j, y := range row {
			rowMean[i] += y
			colMean[j] += y
			grand += y
		}
		rowMean[i] /= float64(per)
	}
	for j := range colMean {
		colMean[j] /= float64(s.starts)
	}
	grand /= float64(s.starts * per)
	for i, row := range rows {
		d := rowMean[i] - grand
		s.ssBetween += float64(per) * d * d
		for j, y := range row {
			e := y - rowMean[i] - colMean[j] + grand
			s.ssWithin += e * e
		}
	}
	s.dfBetween = s.starts - 1
	s.dfWithin = (s.starts - 1) * (per - 1)
	return s
}

// campaignVariance is the variance of an arm's mean times the campaign
// time it takes, per start: with k measured requests a start costs
// start + k·request and its mean varies by between + within/k. Below
// replayBelow requests a start also pays a token replay, a request's
// time: its last warmup gives the identity check's ids only with enough
// requests beside it (harness/warmupids.go), and this campaign's start
// cost had none.
func campaignVariance(f schema.AnatomyFigures, k, replayBelow int) float64 {
	kf, cost := float64(k), f.StartS+float64(k)*f.RequestS
	if k < replayBelow {
		cost += f.RequestS
	}
	return (f.BetweenVar + f.WithinVar/kf) * cost
}

// replayBelow is the number of measured requests per start below which a
// campaign whose warmups gave the token ids would pay a replay instead; 0
// where no warmup did.
func replayBelow(an *schema.Anatomy) int {
	if !an.LastWarmupLeftOut {
		return 0
	}
	return schema.WholeWarmupMin - an.Warmup
}

// optimumRequests is the continuous optimum sqrt((start/request)·
// (within/between)); unbounded when no variance was seen between starts.
func optimumRequests(f schema.AnatomyFigures) (float64, bool) {
	switch {
	case f.WithinVar == 0 || f.RequestS <= 0:
		return 1, false
	case f.BetweenVar == 0:
		return 0, true
	}
	return math.Sqrt(f.StartS / f.RequestS * f.WithinVar / f.BetweenVar), false
}

// bestRequests is the whole number of measured requests per start, 1 to
// AnatomyAdviceMax, with the least campaignVariance (the first on a tie):
// the floor or the ceiling of the continuous optimum, whichever is better,
// bounded.
func bestRequests(f schema.AnatomyFigures, replayBelow int) int {
	ks := make([]int, AnatomyAdviceMax)
	for i := range ks {
		ks[i] = i + 1
	}
	return slices.MinFunc(ks, func(a, b int) int {
		va, vb := campaignVariance(f, a, replayBelow), campaignVariance(f, b, replayBelow)
		switch {
		case va < vb:
			return -1
		case va > vb:
			return 1
		}
		return a - b
	})
}
