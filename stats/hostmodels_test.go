package stats_test

// The host models of the statistics audit (issue 33): each is a way a real
// host or engine departs from the calibration's log-normal noise with a
// common drift and rare stalls. A model draws one run's value from the
// run's arm, the host's level (center) and the run's place in the campaign
// (pos, 0 to 1); stalls, where a model has them, are part of its draw.

import (
	"math"
	"math/rand/v2"
)

// hostModel is one audit model.
type hostModel struct {
	name string
	// h is the host's common drift (and its stalls, for models that keep
	// the calibration's); its cv is used only where draw is nil.
	h host
	// draw returns a run's value; nil draws h's log-normal noise.
	draw func(rng *rand.Rand, arm string, center, pos float64, st *drawState) float64
	// over, where set, is the test arm's true ratio to the baseline over
	// the runs a campaign ran, given their mean place in the campaign (0
	// to 1): the effect of an arm that changes during the campaign depends
	// on the rounds run, so a sequential campaign that stops early measures
	// another effect than the whole schedule's.
	over func(meanPos float64) float64
}

// drawState is what a model carries from run to run of a campaign.
type drawState struct {
	ar        float64 // the autocorrelated noise's last value
	stepAt    float64 // where the host steps (0 to 1)
	started   bool
	recovered bool // the throttled host's state
}

const (
	// auditStall is the stall the models with stalls share: one run in
	// twenty, 30% slow.
	auditStallRate, auditStallCost = 0.05, 0.3
)

func stall(rng *rand.Rand, p, cost float64) float64 {
	if rng.Float64() < p {
		return 1 - cost
	}
	return 1
}

var auditModels = []hostModel{
	{name: "test arm noisier than the baseline (CV 1.5% against 6%)", h: host{drift: 0.03},
		draw: func(rng *rand.Rand, arm string, center, pos float64, _ *drawState) float64 {
			cv := 0.015
			if arm == "test" {
				cv = 0.06
			}
			return center * math.Exp(cv*rng.NormFloat64()) * stall(rng, auditStallRate, auditStallCost)
		}},
	{name: "start-level bimodality (a third of starts 8% slower, 3 requests a start)", h: host{drift: 0.03},
		draw: func(rng *rand.Rand, arm string, center, pos float64, _ *drawState) float64 {
			mode := 1.0
			if rng.Float64() < 1.0/3 {
				mode = 0.92
			}
			// Three requests of 1% noise each, their geometric mean.
			within := 0.01 / math.Sqrt(3) * rng.NormFloat64()
			return center * mode * math.Exp(0.005*rng.NormFloat64()+within)
		}},
	{name: "frequent large stalls (one run in four, 40% slow)", h: host{drift: 0.03},
		draw: func(rng *rand.Rand, arm string, center, pos float64, _ *drawState) float64 {
			return center * math.Exp(0.02*rng.NormFloat64()) * stall(rng, 0.25, 0.4)
		}},
	{name: "one arm drifts on its own (the test arm slides 6%, centred)", h: host{drift: 0.03},
		draw: func(rng *rand.Rand, arm string, center, pos float64, _ *drawState) float64 {
			v := center * math.Exp(0.02*rng.NormFloat64()) * stall(rng, auditStallRate, auditStallCost)
			if arm == "test" {
				v *= math.Exp(-0.06 * (pos - 0.5))
			}
			return v
		},
		over: func(meanPos float64) float64 { return math.Exp(-0.06 * (meanPos - 0.5)) }},
	{name: "the host steps mid-campaign (every arm 5% slower from a random run on)", h: host{drift: 0.01},
		draw: func(rng *rand.Rand, arm string, center, pos float64, st *drawState) float64 {
			if !st.started {
				st.started, st.stepAt = true, 0.2+0.6*rng.Float64()
			}
			v := center * math.Exp(0.02*rng.NormFloat64()) * stall(rng, auditStallRate, auditStallCost)
			if pos >= st.stepAt {
				v *= 0.95
			}
			return v
		}},
	{name: "heavy-tailed noise (t, 3 degrees of freedom, sd 2%)", h: host{drift: 0.03},
		draw: func(rng *rand.Rand, arm string, center, pos float64, _ *drawState) float64 {
			// Student's t with 3 df: Z / sqrt(chi2_3 / 3); its sd is sqrt(3).
			chi := 0.0
			for range 3 {
				z := rng.NormFloat64()
				chi += z * z
			}
			tv := rng.NormFloat64() / math.Sqrt(chi/3)
			return center * math.Exp(0.02/math.Sqrt(3)*tv)
		}},
	{name: "autocorrelated noise (AR(1), rho 0.7, sd 3%)", h: host{drift: 0.01},
		draw: func(rng *rand.Rand, arm string, center, pos float64, st *drawState) float64 {
			const rho, sd = 0.7, 0.03
			if !st.started {
				st.started, st.ar = true, sd*rng.NormFloat64()
			} else {
				st.ar = rho*st.ar + sd*math.Sqrt(1-rho*rho)*rng.NormFloat64()
			}
			return center * math.Exp(st.ar+0.005*rng.NormFloat64())
		}},
	// The two below came from the adversarial review of rule robust-7
	// (2026-12-05): a side that runs far faster than its median in a few
	// rounds is the same data as a side stalled most of the time.
	{name: "a fast mode in one start in five (every arm 20% faster)", h: host{drift: 0.03},
		draw: func(rng *rand.Rand, arm string, center, pos float64, _ *drawState) float64 {
			v := center * math.Exp(0.01*rng.NormFloat64()) * stall(rng, auditStallRate, auditStallCost)
			if rng.Float64() < 0.2 {
				v *= 1.2
			}
			return v
		}},
	{name: "a host throttled most of the time (20% slow, recovering for 1.5 runs in 7.5)", h: host{drift: 0.01},
		draw: func(rng *rand.Rand, arm string, center, pos float64, st *drawState) float64 {
			switch {
			case !st.started:
				st.started, st.recovered = true, rng.Float64() < 0.2
			case st.recovered:
				st.recovered = rng.Float64() >= 1/1.5
			default:
				st.recovered = rng.Float64() < 1.0/6
			}
			v := center * math.Exp(0.02*rng.NormFloat64())
			if !st.recovered {
				v *= 0.8
			}
			return v
		}},
}
