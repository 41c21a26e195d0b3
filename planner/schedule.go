package planner

import (
	"math"
	"time"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
)

// Schedule is a schedule of rounds and measured requests a start, with
// what its record would state on the host and what it takes.
type Schedule struct {
	// Min, Max and Every are schedule.rounds: Every 0 for a fixed
	// schedule of Max rounds, else looks at Min, Min+Every, … and Max.
	Min   int `json:"min"`
	Max   int `json:"max"`
	Every int `json:"every,omitempty"`
	// Requests are the measured requests a start, MaxTokens a request's.
	Requests  int `json:"requests"`
	MaxTokens int `json:"max_tokens"`
	// Up and Down are the MDE of a test arm, an increase (new/old − 1)
	// and a decrease (1 − new/old), at the power the rule states it at;
	// 0 when none can be stated.
	Up   float64 `json:"mde_up"`
	Down float64 `json:"mde_down"`
	// Round is what a round takes, Time the schedule at its most rounds.
	Round time.Duration `json:"round_ns"`
	Time  time.Duration `json:"time_ns"`
}

// MDE is the larger of Up and Down: what the schedule detects either way;
// +Inf when none can be stated.
func (s Schedule) MDE() float64 {
	if s.Up <= 0 || s.Down <= 0 {
		return math.Inf(1)
	}
	return math.Max(s.Up, s.Down)
}

// Rounds is the schedule as schedule.rounds.
func (s Schedule) Rounds() scenarios.Rounds {
	if s.Every == 0 || s.Max <= s.Min {
		return scenarios.Rounds{Min: s.Max, Max: s.Max}
	}
	return scenarios.Rounds{Min: s.Min, Max: s.Max, Every: s.Every}
}

// model is a scenario on a host: what the rule's MDE model is given for
// a schedule.
type model struct {
	host   Host
	policy scenarios.Policy
	rule   analysis.Rule
	// arms, refs (a test arm's reference arms) and whether there is a
	// control; a start's warmups, the scenario's max_tokens, and whether
	// its engine is a command.
	arms, refs     int
	control        bool
	warmup, tokens int
	command        bool
	// slot is the most tokens a request may take on the engine's
	// context (scenarios.Scenario.SlotTokens); 0 where unknown.
	slot int
}

func newModel(h Host, s *scenarios.Scenario, rule analysis.Rule) model {
	p := s.Policy
	m := model{host: h, policy: p, rule: rule, arms: len(p.Arms), refs: 1,
		warmup: s.Schedule.Warmup, tokens: s.Engine.Request.MaxTokens, command: s.Engine.IsCommand()}
	if t, ok := s.SlotTokens(); ok {
		m.slot = max(1, t)
	}
	for _, a := range p.Arms {
		if a.Control {
			m.control = true
			if p.Stats.PoolControl && rule.Pooling != analysis.NoPooling {
				m.refs++
			}
		}
	}
	return m
}

// round is what a round of k measured requests of tokens takes: every
// arm's start and its requests, a request's cost (the host's, for the
// scenario's max_tokens) scaled to its tokens, the warmups' too.
func (m model) round(k, tokens int) time.Duration {
	c := m.host.Costs
	req := c.Request
	if m.tokens > 0 && tokens > 0 && tokens != m.tokens {
		req = time.Duration(float64(req) * float64(tokens) / float64(m.tokens))
	}
	start := c.Start + time.Duration(m.warmup)*(req-c.Request)
	if c.Replays(m.warmup, k) {
		start += req // a token replay after the window (estimate.Costs.Replays)
	}
	return time.Duration(m.arms) * (start + time.Duration(k)*req)
}

// expected is the comparison by round a campaign of rounds expects of an
// arm against refs reference arms, each run of variance v: the rounds'
// differences of variance v·(1 + 1/refs), the share the host trims left
// out. Sigma is scaled by c4 so that the MDE model's unbiasing of an
// estimate gives back the host's own noise.
func (m model) expected(rounds int, v float64, refs int) stats.Robust {
	trim := 0.0
	if m.host.Compared > 0 {
		trim = float64(m.host.Trimmed) / float64(m.host.Compared)
	}
	n := max(2, int(math.Round(float64(rounds)*(1-trim))))
	sd := math.Sqrt(v * (1 + 1/float64(refs)))
	return stats.Robust{Result: stats.Result{N1: n, N2: n}, Blocks: rounds, DF: float64(n - 1),
		SE: sd / math.Sqrt(float64(n)), Sigma: sd / math.Sqrt2 * c4(float64(n))}
}

// evaluate fills the schedule's MDE and times on the host, a start's draw
// of variance between.
func (m model) evaluate(s *Schedule, between float64) {
	h := m.host
	h.Between = between
	v := h.RunVar(s.Requests, s.MaxTokens)
	pl := analysis.Planned{Arm: m.expected(s.Max, v, m.refs), Stalls: m.stalls(), Looks: s.Rounds().Looks()}
	if m.control {
		c := m.expected(s.Max, v, 1)
		pl.Control = &c
	}
	up, down := m.rule.PlannedMDE(m.policy, pl)
	s.Up, s.Down = finite(up), finite(down)
	s.Round = m.round(s.Requests, s.MaxTokens)
	s.Time = time.Duration(s.Max) * s.Round
}

// stalls are the host's stalls as the planned campaign's comparisons
// (an arm but the baseline each) would see them: the records'
// comparisons merged in turn into that many, so that the rule's model
// counts the campaign's refusals over its own comparisons, not the
// records'.
func (m model) stalls() []stats.Stalls {
	n := max(1, m.arms-1)
	if len(m.host.Stalls) <= n {
		return m.host.Stalls
	}
	groups := make([][]stats.Stalls, n)
	for i, st := range m.host.Stalls {
		groups[i%n] = append(groups[i%n], st)
	}
	out := make([]stats.Stalls, n)
	for i, g := range groups {
		out[i] = stats.MergeStalls(g)
	}
	return out
}

// finite is x, or 0 where it is not a finite positive number.
func finite(x float64) float64 {
	if !(x > 0) || math.IsInf(x, 0) {
		return 0
	}
	return x
}

// c4 is the bias of a sample standard deviation of n values,
// E[s] = c4(n)·σ.
func c4(n float64) float64 {
	if n < 2 {
		return 1
	}
	lg1, _ := math.Lgamma(n / 2)
	lg2, _ := math.Lgamma((n - 1) / 2)
	return math.Sqrt(2/(n-1)) * math.Exp(lg1-lg2)
}

// minRounds is the fewest rounds a comparison by round can decide on.
const minRounds = schema.RobustMinRuns
