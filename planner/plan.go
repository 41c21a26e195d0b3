package planner

import (
	"slices"
	"time"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// MaxRounds bounds the rounds a plan proposes: an ask that needs more is
// out of reach.
const MaxRounds = 400

// Options are what a plan is asked.
type Options struct {
	// MDE is the effect asked about, a fraction (0.03 for 3%); 0 asks
	// nothing.
	MDE float64
	// Budget bounds the campaign's time, the scenario's own schedule's as
	// the asked MDE's; 0 takes the scenario's max_time, and none without
	// one.
	Budget time.Duration
}

// Plan is what a scenario's schedule detects on a host, and, when asked,
// the schedule that detects the asked effect.
type Plan struct {
	Feature string      `json:"feature"`
	Rule    schema.Rule `json:"rule"`
	Host    Host        `json:"host"`
	// Tests are the test arms; Level a test arm's alpha (the family's
	// over them, Holm's first step); Power the power an MDE is stated at
	// before a control's veto is made up for.
	Tests int     `json:"test_arms"`
	Level float64 `json:"level"`
	Power float64 `json:"power"`
	// Schedule is the scenario's own schedule on the host; with a budget
	// (the scenario's max_time) its rounds are those the budget allows at
	// the host's round time, and Capped is set when that is before its
	// max.
	Schedule Schedule      `json:"schedule"`
	Budget   time.Duration `json:"budget_ns,omitempty"`
	Capped   bool          `json:"capped,omitempty"`
	// BudgetAsked is set when Budget is --budget's, not the scenario's
	// own max_time (OwnBudget, 0 for none): the schedule is then a
	// what-if, run with --set schedule.rounds.max_time.
	BudgetAsked bool          `json:"budget_asked,omitempty"`
	OwnBudget   time.Duration `json:"own_budget_ns,omitempty"`
	// Over is how much the first look alone exceeds the budget at the
	// host's round time: a budget stops a campaign only at a look, so
	// the campaign runs min rounds whatever its budget. 0 when it fits.
	Over time.Duration `json:"over_budget_ns,omitempty"`
	// Advice is the measured requests a start that narrow the schedule's
	// interval most for its time (the noise anatomy's advice, from the
	// host's split); 0 when the noise is not split.
	Advice int `json:"advice,omitempty"`
	// Stalls is what the schedule would detect at either end of the
	// stalls' rate's interval (nil where the host saw none).
	Stalls *StallRange `json:"stall_range,omitempty"`
	Ask    *Ask        `json:"ask,omitempty"`
}

// Ask is the answer to an asked MDE.
type Ask struct {
	MDE float64 `json:"mde"`
	// Budget is the ask's budget (--budget, else the scenario's
	// max_time); 0 for none, when MaxRounds bounds it.
	Budget time.Duration `json:"budget_ns,omitempty"`
	// BelowMinEffect: the ask is not above stats.min_effect, which every
	// significant change must clear; no schedule reaches it.
	BelowMinEffect bool    `json:"below_min_effect,omitempty"`
	MinEffect      float64 `json:"min_effect"`
	// Reach is the quickest schedule of the scenario's shape (its min and
	// every, a later max, or min alone; or a fixed number of rounds) and measured
	// requests a start that reaches the MDE, within MaxRounds; nil when
	// none does. InBudget is set when it fits the budget.
	Reach    *Schedule `json:"reach,omitempty"`
	InBudget bool      `json:"in_budget"`
	// Stalls is what Reach would detect at either end of the stalls'
	// rate's interval (nil where the host saw none).
	Stalls *StallRange `json:"stall_range,omitempty"`
	// When the ask is out of reach within the budget (or MaxRounds):
	// Best is the schedule with the smallest MDE that fits; Windows the
	// first longer window (max_tokens ×2, ×4, ×8, as far as the engine's
	// context holds one) whose best schedule reaches the MDE within it,
	// else the longest's; QuietCV the noise of
	// a start's draw (a CV) under which the best schedule would reach it,
	// 0 when not even none would (NowCV is the host's).
	Best    *Schedule `json:"best,omitempty"`
	Windows *Schedule `json:"windows,omitempty"`
	// SlotTokens is the most tokens a request may take on the engine's
	// context (scenarios.Scenario.SlotTokens) where it left out a longer
	// window; 0 where it left none out.
	SlotTokens int     `json:"slot_tokens,omitempty"`
	QuietCV    float64 `json:"quiet_cv,omitempty"`
	NowCV      float64 `json:"now_cv,omitempty"`
}

// New plans scenario s on host h under the current rule.
func New(s *scenarios.Scenario, h Host, o Options) Plan {
	return plan(s, h, o, analysis.Current())
}

func plan(s *scenarios.Scenario, h Host, o Options, rule analysis.Rule) Plan {
	m := newModel(h, s, rule)
	r := s.Schedule.Rounds
	k := max(1, s.Schedule.Requests)
	p := Plan{Feature: s.Feature, Rule: rule.Name, Host: h, Power: analysis.MDEPower, Budget: r.MaxTime.Duration}
	if o.Budget > 0 {
		p.Budget = o.Budget
		// A budget stops only a schedule with looks: a fixed one is the
		// same schedule under --budget, which bounds the ask alone.
		if o.Budget != r.MaxTime.Duration && r.Sequential() {
			p.BudgetAsked, p.OwnBudget = true, r.MaxTime.Duration
		}
	}
	// The ask's shape is the scenario's own (its min and every), before a
	// budget puts its max on the looks' grid: a max off the grid made it
	// a fixed schedule.
	shapeAsked := shapeOf(r)
	for _, a := range s.Policy.Arms {
		if a.Name != s.Policy.Baseline && !a.Control {
			p.Tests++
		}
	}
	p.Level = s.Policy.Stats.Alpha / float64(max(1, p.Tests))
	own := Schedule{Min: r.Min, Max: r.Max, Requests: k, MaxTokens: m.tokens}
	if r.Sequential() {
		own.Every = r.Every
	}
	if b := p.Budget; b > 0 && r.Sequential() {
		// Only looks stop a campaign on its budget (max_time needs every),
		// and one goes on only where every more rounds fit: a max off the
		// looks' grid is never reached.
		r = r.OnGrid()
		own.Min, own.Max = r.Min, r.Max
		if !r.Sequential() {
			own.Every = 0
		}
		g := shapeOf(r)
		if n := int(b / m.round(k, m.tokens)); r.Sequential() && n < r.Max {
			// Where the first look is the last (fewer than min + every
			// rounds fit) the campaign runs min: schedule 0. MaxRounds
			// bounds what a plan proposes, not the scenario's own max.
			own.Min, own.Max, own.Every = g.at(max(0, (n-r.Min)/r.Every))
			p.Capped = true
		}
	}
	m.evaluate(&own, h.Between)
	if p.Capped && own.Time > p.Budget {
		p.Over = own.Time - p.Budget
	}
	p.Schedule = own
	p.Stalls = m.stallRange(own)
	ks := m.requests(k)
	if len(ks) > 1 {
		p.Advice = slices.MinFunc(ks, func(a, b int) int {
			return cmpFloat(h.RunVar(a, m.tokens)*float64(m.round(a, m.tokens)), h.RunVar(b, m.tokens)*float64(m.round(b, m.tokens)))
		})
	}
	if o.MDE > 0 {
		p.Ask = m.ask(shapeAsked, o.MDE, p.Budget, k)
	}
	return p
}

// requests are the measured requests a start a plan may choose: 1 to the
// anatomy's bound when the host's noise is split, else the scenario's.
func (m model) requests(k int) []int {
	if !m.host.Split || m.command {
		return []int{k}
	}
	var ks []int
	for i := 1; i <= analysis.AnatomyAdviceMax; i++ {
		ks = append(ks, i)
	}
	return ks
}

// ask answers an asked MDE x within budget (0: MaxRounds).
func (m model) ask(g shape, x float64, budget time.Duration, k int) *Ask {
	a := &Ask{MDE: x, Budget: budget, MinEffect: m.policy.Stats.MinEffect}
	if x <= a.MinEffect {
		a.BelowMinEffect = true
		return a
	}
	ks := m.requests(k)
	a.Reach = m.reach(g, x, ks, m.tokens)
	if a.Reach != nil {
		a.Stalls = m.stallRange(*a.Reach)
	}
	a.InBudget = a.Reach != nil && (budget == 0 || a.Reach.Time <= budget)
	if a.InBudget {
		return a
	}
	a.Best = m.best(g, ks, m.tokens, budget, m.host.Between)
	if a.Best == nil {
		return a
	}
	a.Windows, a.SlotTokens = m.windows(g, ks, x, budget)
	a.NowCV = CV(m.host.Between)
	try := func(b float64) bool {
		s := m.best(g, ks, m.tokens, budget, b)
		return s != nil && s.MDE() <= x
	}
	if try(0) {
		lo, hi := 0.0, m.host.Between
		for range 30 {
			mid := (lo + hi) / 2
			if try(mid) {
				lo = mid
			} else {
				hi = mid
			}
		}
		a.QuietCV = CV(lo)
	}
	return a
}

// reach is the quickest schedule of shape g, with one of ks measured
// requests a start of tokens each, whose MDE is at most x; nil when none
// within MaxRounds. Each k's rounds are found first for one look at the
// end (which a design of looks only widens), then, for the quickest few,
// stepped up under the design.
func (m model) reach(g shape, x float64, ks []int, tokens int) *Schedule {
	type cand struct {
		j int
		s Schedule
	}
	found := each(ks, func(k int) *cand {
		at := func(j int) Schedule {
			s := Schedule{Requests: k, MaxTokens: tokens}
			_, s.Max, _ = g.at(j)
			s.Min = s.Max
			m.evaluate(&s, m.host.Between)
			return s
		}
		// Galloping up from the first schedule, then bisecting: a long
		// schedule's MDE costs far more to model than a short one's
		// (its far rounds' counts), and most asks are reached well
		// under MaxRounds.
		lo := g.first()
		if g.every > 0 {
			// Min alone, then the gallop from min + every: its steps
			// (min + every, + 2·every, + 4·every, …) as before min alone
			// was a schedule of its own.
			if s := at(0); s.MDE() <= x {
				return &cand{0, s}
			}
			lo = 1
		}
		hi, step := lo, 1
		for at(hi).MDE() > x {
			if hi == g.last() {
				return nil
			}
			lo, hi, step = hi+1, min(g.last(), hi+step), 2*step
		}
		for lo < hi {
			mid := (lo + hi) / 2
			if at(mid).MDE() <= x {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		return &cand{lo, at(lo)}
	})
	var cands []cand
	for _, c := range found {
		if c != nil {
			cands = append(cands, *c)
		}
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return cmpDuration(a.s.Time, b.s.Time) })
	var out *Schedule
	for _, c := range cands[:min(3, len(cands))] {
		for j := c.j; j <= g.last(); j++ {
			s := Schedule{Requests: c.s.Requests, MaxTokens: tokens}
			s.Min, s.Max, s.Every = g.at(j)
			m.evaluate(&s, m.host.Between)
			if s.MDE() <= x {
				if out == nil || s.Time < out.Time {
					out = &s
				}
				break
			}
		}
	}
	return out
}

// best is the schedule of shape g with the smallest MDE that fits the
// budget (0: MaxRounds), over ks measured requests a start of tokens
// each, a start's draw of variance between; nil when none fits.
func (m model) best(g shape, ks []int, tokens int, budget time.Duration, between float64) *Schedule {
	fits := each(ks, func(k int) *Schedule {
		j := g.last()
		if budget > 0 {
			n := int(budget / m.round(k, tokens))
			if n < g.rounds(g.first()) {
				return nil
			}
			j = g.below(n)
		}
		s := Schedule{Requests: k, MaxTokens: tokens}
		s.Min, s.Max, s.Every = g.at(j)
		m.evaluate(&s, between)
		return &s
	})
	var out *Schedule
	for _, s := range fits {
		if s != nil && (out == nil || s.MDE() < out.MDE()) {
			out = s
		}
	}
	return out
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cmpDuration(a, b time.Duration) int { return cmpFloat(float64(a), float64(b)) }

// shape is the schedules of a scenario's kind a plan chooses among: for a
// sequential schedule its min and every with a later max (index j: max =
// min + j·every), or min alone (j = 0, what a budget that fits no later
// look runs), else a fixed number of rounds (j rounds).
type shape struct {
	min, every int
}

func shapeOf(r scenarios.Rounds) shape {
	if r.Sequential() {
		return shape{min: r.Min, every: r.Every}
	}
	return shape{}
}

// first is the shortest schedule: for a sequential shape min alone (0),
// what a budget that fits no look after min runs, else minRounds.
func (g shape) first() int {
	if g.every > 0 {
		return 0
	}
	return minRounds
}

func (g shape) last() int {
	if g.every > 0 {
		return max(1, (MaxRounds-g.min)/g.every)
	}
	return MaxRounds
}

func (g shape) rounds(j int) int {
	_, n, _ := g.at(j)
	return n
}

// at is schedule j: its min, max and every; for a sequential shape
// schedule 0 is min rounds with no look after it (every 0).
func (g shape) at(j int) (lo, hi, every int) {
	switch {
	case g.every > 0 && j == 0:
		return g.min, g.min, 0
	case g.every > 0:
		return g.min, g.min + j*g.every, g.every
	}
	return j, j, 0
}

// below is the last schedule of at most n rounds (the first when none).
func (g shape) below(n int) int {
	j := n
	if g.every > 0 {
		j = (n - g.min) / g.every
	}
	return min(g.last(), max(g.first(), j))
}
