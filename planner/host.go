package planner

import (
	"math"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/estimate"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
)

// Basis says what a host model was read from.
type Basis string

// Host model bases.
const (
	// BasisScenario: records of the same scenario (its hash) alone.
	BasisScenario Basis = "scenario"
	// BasisFeature: records of the scenario's feature, some (Host.Same)
	// or none of the same scenario.
	BasisFeature Basis = "feature"
	// BasisGuess: no record to go by; the Guess figures.
	BasisGuess Basis = "guess"
)

// Host is a host model: what this hardware's records of a scenario show of
// the noise a campaign of it will see, re-analysed under the current rule.
//
// A run's value is its start's mean of the primary metric over its
// measured requests; on log scale, within its round (where the host's
// drift and steps cancel between the arms), its variance is
//
//	Between + WithinTok / (tokens · requests)
//
// Between being what the start draws (its state, the host's at the
// time) and WithinTok/tokens a request's own noise at its max_tokens,
// assumed to fall in proportion to the tokens it averages over. Between is
// what the comparisons' rounds show less the request noise the noise
// anatomy finds within a start; without an anatomy (one request a start, a
// command engine) the noise is not split (Split false) and all of it is
// taken as the start's.
type Host struct {
	Basis Basis `json:"basis"`
	// Records are the records read, newest first; Hardware theirs, and
	// OtherHardware set when it is not the hardware the campaign would
	// record (none of that hardware's could be used).
	Records []string `json:"records,omitempty"`
	// Same counts the records of the same scenario among them.
	Same     int    `json:"same_scenario"`
	Hardware string `json:"hardware,omitempty"`
	// Here is the hardware the campaign would record.
	Here          string `json:"here,omitempty"`
	OtherHardware bool   `json:"other_hardware,omitempty"`
	// Passed are the records of the scenario's feature passed over, and why.
	Passed []Passed `json:"passed,omitempty"`
	// Metric is the primary metric.
	Metric string `json:"metric"`
	// Rounds are the rounds the records ran; DF the degrees of freedom of
	// the noise's estimate (the rounds' differences not far out, over the
	// comparisons).
	Rounds int     `json:"rounds"`
	DF     float64 `json:"df"`
	// Between and WithinTok are the variances of the model (log scale);
	// Split says whether a record's anatomy split them.
	Between   float64 `json:"between_var"`
	WithinTok float64 `json:"within_var_tokens"`
	Split     bool    `json:"split"`
	// Stalls are what each comparison's rounds saw of stalls.
	Stalls []stats.Stalls `json:"-"`
	// Trimmed, Far and Compared count the rounds trimmed as stalls, the
	// rounds far out (trimmed or kept) and the rounds compared, over the
	// comparisons.
	Trimmed  int `json:"trimmed"`
	Far      int `json:"far"`
	Compared int `json:"compared"`
	// Costs are what a start and a request of the scenario cost, from the
	// newest record (estimate.FromRecord), else guessed.
	Costs estimate.Costs `json:"costs"`
}

// Passed is a record passed over, and why.
type Passed struct {
	Record string `json:"record"`
	Why    string `json:"why"`
}

// RunVar is a run's variance within its round with k measured requests of
// tokens each.
func (h Host) RunVar(k, tokens int) float64 {
	v := h.Between
	if h.Split && tokens > 0 {
		v += h.WithinTok / float64(tokens) / float64(max(1, k))
	}
	return v
}

// CV is the coefficient of variation (a fraction) of a log-normal value
// whose log has variance v.
func CV(v float64) float64 { return math.Sqrt(math.Expm1(v)) }

// Source is one stored campaign a host model is read from: its record
// with its runs, and its stored scenario's policy.
type Source struct {
	Path   string
	Rec    *schema.Record
	Policy scenarios.Policy
}

// noise is one source's share of a host model.
type noise struct {
	comps []comparison
	// within is a request's variance within a start times its tokens,
	// weighted by the anatomy's degrees of freedom (weight 0: no anatomy);
	// tokens and k the source's max_tokens and measured requests a start.
	within, weight float64
	tokens, k      float64
	rounds         int
}

// comparison is one comparison of a source: its rounds' differences, its
// reference arms, the stalls its rule saw.
type comparison struct {
	d      []float64
	refs   int
	stalls stats.Stalls
}

// noiseOf re-analyses a source under rule: its comparisons' rounds and
// stalls, its anatomy's noise within a start. ok is false when no
// comparison has two rounds.
func noiseOf(src Source, rule analysis.Rule) (noise, bool) {
	m := src.Rec.Method
	in := analysis.NewInput(src.Policy, rule, src.Rec.Runs, m)
	nz := analysis.NoiseOf(in)
	out := noise{k: float64(max(1, m.Requests)), tokens: float64(src.Rec.Scenario.Request.MaxTokens)}
	for _, r := range src.Rec.Runs {
		out.rounds = max(out.rounds, r.Round)
	}
	for _, a := range nz.Arms {
		if len(a.Rounds) >= 2 {
			out.comps = append(out.comps, comparison{d: a.Rounds, refs: len(a.Refs), stalls: a.R.Stalls})
		}
	}
	if an := nz.Anatomy; an != nil && an.Gap == "" && an.Pooled != nil && out.tokens > 0 {
		p := an.Pooled
		out.weight = float64(max(0, p.Starts-len(an.Arms)) * max(0, p.PerStart-1))
		out.within = p.WithinVar * out.tokens
	}
	return out, len(out.comps) > 0
}

// unit is the factor that puts a comparison's difference in a run's
// units: a difference against refs reference arms has variance
// v·(1 + 1/refs).
func (c comparison) unit() float64 { return 1 / math.Sqrt(1+1/float64(c.refs)) }

// pool is the host model of the sources' noise.
//
// A round is far out (a stall) when its difference is beyond stats.TrimZ
// robust standard deviations (1.4826 median absolute deviations) of every
// comparison's rounds pooled, and at least stats.StallFloor off its
// comparison's median: pooled, a few records of few rounds each still
// tell a stall from the noise, where one campaign of ten rounds and three
// stalls may not. A run's variance within its round is that of the rounds
// not far out, in a run's units, made up for the tails of a normal noise
// the cut leaves out; a record's share of it that its requests do not
// explain (the anatomy's noise within a start, pooled over the records
// with one, by its degrees of freedom) is the start's. The stalls are the
// rule's own counts, a round far out that the rule neither trimmed nor
// kept as far counted as trimmed: with the rounds a plan runs, the rule
// sees it.
func pool(ns []noise) Host {
	var h Host
	var within, weight float64
	var dev []float64
	for _, n := range ns {
		if n.weight > 0 {
			within += n.within * n.weight
			weight += n.weight
		}
		for _, c := range n.comps {
			med := stats.Median(c.d)
			for _, x := range c.d {
				dev = append(dev, math.Abs(x-med)*c.unit())
			}
		}
	}
	if weight > 0 {
		h.WithinTok, h.Split = within/weight, true
	}
	scale := 1.4826 * stats.Median(dev)
	type share struct{ ss, df float64 }
	shares := make([]share, len(ns))
	var ss, df, cut float64
	for i, n := range ns {
		for _, c := range n.comps {
			s, d, far := c.clean(scale)
			shares[i].ss += s
			shares[i].df += d
			cut += d * math.Max(stats.TrimZ*scale, stats.StallFloor*c.unit())
			st := c.stalls
			st.Runs1, st.Runs2 = len(c.d), len(c.d)
			st.Trimmed += max(0, far-st.Trimmed-st.Kept)
			h.Stalls = append(h.Stalls, st)
		}
		ss, df = ss+shares[i].ss, df+shares[i].df
	}
	tails := 1.0
	if df > 0 && ss > 0 && scale > 0 {
		tails = truncation(ss/df, cut/df)
	}
	var between float64
	for i, n := range ns {
		sh := shares[i]
		if sh.df == 0 {
			continue
		}
		b := sh.ss / sh.df / tails
		if h.Split && n.tokens > 0 {
			b = math.Max(0, b-h.WithinTok/(n.tokens*n.k))
		}
		between += b * sh.df
		h.DF += sh.df
		h.Rounds += n.rounds
	}
	if h.DF > 0 {
		h.Between = between / h.DF
	}
	for _, st := range h.Stalls {
		h.Trimmed += st.Trimmed
		h.Far += st.Trimmed + st.Kept
		h.Compared += st.Runs1
	}
	return h
}

// truncation is the share of a normal noise's variance that is left
// within ±cut of its centre, for the variance v seen within the cut: the
// fixed point of σ² = v / share(cut/σ).
func truncation(v, cut float64) float64 {
	share := 1.0
	for range 50 {
		z := cut / math.Sqrt(v/share)
		next := 1 - 2*z*math.Exp(-z*z/2)/math.Sqrt(2*math.Pi)/math.Erf(z/math.Sqrt2)
		if math.Abs(next-share) < 1e-9 {
			return next
		}
		share = next
	}
	return share
}

// clean is the sum of squares (in a run's units, about their mean) and
// degrees of freedom of the comparison's rounds that are not far out at
// scale, and the number that are.
func (c comparison) clean(scale float64) (ss, df float64, far int) {
	med := stats.Median(c.d)
	var kept []float64
	for _, x := range c.d {
		if a := math.Abs(x - med); scale > 0 && a*c.unit() > stats.TrimZ*scale && a >= stats.StallFloor {
			far++
		} else {
			kept = append(kept, x*c.unit())
		}
	}
	if len(kept) < 2 {
		return 0, 0, far
	}
	mean := 0.0
	for _, u := range kept {
		mean += u / float64(len(kept))
	}
	for _, u := range kept {
		ss += (u - mean) * (u - mean)
	}
	return ss, float64(len(kept) - 1), far
}
