package planner_test

import (
	"math"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/decodebench/decodebench/estimate"
	"github.com/decodebench/decodebench/planner"
	"github.com/decodebench/decodebench/stats"
)

// vmHost is a host model like the development VM's: a start's draw CV
// 2.5%, a request's own 3% at 256 tokens, one round in twenty-five
// trimmed as a stall, a start 6 s and a request 2 s.
func vmHost() planner.Host {
	return planner.Host{Basis: planner.BasisScenario, Metric: "decode_tok_s", Between: math.Log1p(0.025 * 0.025),
		WithinTok: 256 * math.Log1p(0.03*0.03), Split: true,
		Stalls:  []stats.Stalls{{Runs1: 50, Runs2: 50, Trimmed: 2}, {Runs1: 50, Runs2: 50, Trimmed: 2}},
		Trimmed: 4, Far: 4, Compared: 100,
		Costs: estimate.Costs{Basis: estimate.BasisAnatomy, Start: 6 * time.Second, Request: 2 * time.Second}}
}

// TestPlanSchedule: the scenario's own schedule is planned as it stands:
// its rounds and requests, a round every arm's start and requests, its
// time at its most rounds; more rounds detect less; the anatomy's advice
// is the requests a start with the least variance for their time.
func TestPlanSchedule(t *testing.T) {
	p := planner.New(demo(t), vmHost(), planner.Options{})
	s := p.Schedule
	if s.Min != 5 || s.Max != 10 || s.Every != 5 || s.Requests != 3 || s.MaxTokens != 256 || p.Tests != 1 || p.Level != 0.05 || p.Capped {
		t.Fatalf("plan %+v", p)
	}
	if s.Round != 3*12*time.Second || s.Time != 10*s.Round {
		t.Errorf("round %v, time %v: want 3 × (6 s + 3 × 2 s) and 10 rounds of it", s.Round, s.Time)
	}
	if !(s.Up > 0.02 && s.Up < 0.2 && s.Down > 0.02 && s.Down < s.Up) {
		t.Errorf("MDE +%.4f / -%.4f", s.Up, s.Down)
	}
	longer := planner.New(demo(t, "schedule.rounds.max=30", "schedule.rounds.max_time=1h"), vmHost(), planner.Options{}).Schedule
	if !(longer.MDE() < s.MDE()) || longer.Time != 3*s.Time {
		t.Errorf("30 rounds: %+v against 10: %+v", longer, s)
	}
	// (between + within/k)·(start + k·request) is least at k = 2:
	// 1 → 1.52e-3·8, 2 → 1.07e-3·10, 3 → 0.92e-3·12.
	if p.Advice != 2 {
		t.Errorf("advice %d, want 2", p.Advice)
	}
	h := vmHost()
	h.Split, h.WithinTok = false, 0
	if p := planner.New(demo(t), h, planner.Options{MDE: 0.04}); p.Advice != 0 || p.Ask.Reach == nil || p.Ask.Reach.Requests != 3 {
		t.Errorf("noise not split: the scenario's requests stand: %+v, %+v", p, p.Ask.Reach)
	}
}

// TestPlanBudget: a schedule with a budget is planned to the rounds the
// budget allows at the host's round time.
func TestPlanBudget(t *testing.T) {
	p := planner.New(demo(t, "schedule.requests=1", "schedule.rounds.max=100", "schedule.rounds.max_time=5m"), vmHost(), planner.Options{})
	// 300 s at 24 s a round: 12 rounds, the last look at 10.
	if s := p.Schedule; !p.Capped || p.Budget != 5*time.Minute || s.Max != 10 || s.Every != 5 || s.Time > p.Budget {
		t.Errorf("budgeted schedule %+v (capped %v)", s, p.Capped)
	}
	p = planner.New(demo(t, "schedule.requests=1", "schedule.rounds.max=100", "schedule.rounds.max_time=2m"), vmHost(), planner.Options{})
	if s := p.Schedule; !p.Capped || s.Max != 5 || s.Every != 0 || p.Over != 0 {
		t.Errorf("a budget under two looks runs min: %+v (over by %v)", s, p.Over)
	}
	// A budget shorter than the first look: the campaign runs min anyway,
	// 2 minutes at 24 s a round, a minute over the budget.
	p = planner.New(demo(t, "schedule.requests=1", "schedule.rounds.max=100", "schedule.rounds.max_time=1m"), vmHost(), planner.Options{})
	if s := p.Schedule; !p.Capped || s.Max != 5 || s.Every != 0 || p.Over != time.Minute {
		t.Errorf("a budget under the first look: %+v, over by %v, want a minute", s, p.Over)
	}
	// A scenario's own max above MaxRounds is its to set: a budget that
	// holds more rounds than MaxRounds stops it at the budget's last look
	// (a reviewer's max 1000, 5h was planned at 400 rounds, "the budget
	// stops it there", in half the budget).
	p = planner.New(demo(t, "schedule.requests=1", "schedule.rounds.max=1000", "schedule.rounds.max_time=5h"), vmHost(), planner.Options{})
	if s := p.Schedule; !p.Capped || s.Max != 750 || s.Every != 5 || s.Time > p.Budget || s.Time+5*s.Round <= p.Budget {
		t.Errorf("max 1000 under 5h at 24 s a round: %+v, want 750 rounds, the budget's last look", s)
	}
	// The budget asked for (plan --budget) stands for the scenario's own,
	// with or without an MDE asked.
	for _, o := range []planner.Options{{Budget: 5 * time.Minute}, {Budget: 5 * time.Minute, MDE: 0.2}} {
		p = planner.New(demo(t, "schedule.requests=1", "schedule.rounds.max=100", "schedule.rounds.max_time=2m"), vmHost(), o)
		if s := p.Schedule; !p.Capped || p.Budget != 5*time.Minute || s.Max != 10 || s.Every != 5 {
			t.Errorf("%+v: budgeted schedule %+v (capped %v, budget %v)", o, s, p.Capped, p.Budget)
		}
		if o.MDE > 0 && (p.Ask == nil || p.Ask.Budget != 5*time.Minute) {
			t.Errorf("%+v: the ask's budget %+v", o, p.Ask)
		}
	}
}

// TestPlanBudgetOffTheGrid: under a budget a look goes on only where
// every more rounds fit, so a max off the looks' grid is never reached;
// the plan states the grid's last look, its MDE and time, not max's (a
// reviewer's {min: 5, max: 7, every: 5} was planned at 7 rounds and ran
// 5). Without a budget max is a look of its own.
func TestPlanBudgetOffTheGrid(t *testing.T) {
	for _, c := range []struct {
		max, want int
	}{{23, 20}, {20, 20}, {27, 25}} {
		p := planner.New(demo(t, "schedule.requests=1", "schedule.rounds.max="+strconv.Itoa(c.max), "schedule.rounds.max_time=1h"), vmHost(), planner.Options{})
		on := planner.New(demo(t, "schedule.requests=1", "schedule.rounds.max="+strconv.Itoa(c.want), "schedule.rounds.max_time=1h"), vmHost(), planner.Options{})
		if s := p.Schedule; s.Max != c.want || s.MDE() != on.Schedule.MDE() || s.Time != on.Schedule.Time {
			t.Errorf("max %d under a budget: %+v, want that of max %d: %+v", c.max, s, c.want, on.Schedule)
		}
	}
	if s := planner.New(demo(t, "schedule.requests=1", "schedule.rounds.max=7", "schedule.rounds.max_time=1h"), vmHost(), planner.Options{}).Schedule; s.Max != 5 || s.Every != 0 || s.Time != 5*s.Round {
		t.Errorf("max 7 under a budget: %+v, want the first look's 5 rounds", s)
	}
	if s := planner.New(demo(t, "schedule.requests=1", "schedule.rounds.max=7", "schedule.rounds.max_time=0s"), vmHost(), planner.Options{}).Schedule; s.Max != 7 {
		t.Errorf("max 7 without a budget: %+v", s)
	}
}

// TestAskReach: an asked MDE is reached by the quickest schedule of the
// scenario's shape (its min and every, a later max) over the requests a
// start: none with fewer rounds at its requests reaches it, and no
// other requests a start reach it sooner.
func TestAskReach(t *testing.T) {
	s := demo(t)
	const x = 0.04
	p := planner.New(s, vmHost(), planner.Options{MDE: x})
	a := p.Ask
	if a == nil || a.Reach == nil || !a.InBudget || a.Best != nil {
		t.Fatalf("ask %+v", a)
	}
	r := *a.Reach
	if r.MDE() > x || r.Min != 5 || r.Every != 5 || r.Time != time.Duration(r.Max)*r.Round {
		t.Errorf("reach %+v", r)
	}
	at := func(max, k int) planner.Schedule {
		q := demo(t, "schedule.rounds.max="+strconv.Itoa(max), "schedule.requests="+strconv.Itoa(k))
		return planner.New(q, vmHost(), planner.Options{}).Schedule
	}
	if fewer := at(r.Max-5, r.Requests); r.Max > 10 && fewer.MDE() <= x {
		t.Errorf("%d rounds reach %.2f%% too", fewer.Max, 100*fewer.MDE())
	}
	for k := 1; k <= 6; k++ {
		for n := 10; n <= 60; n += 5 {
			if q := at(n, k); q.MDE() <= x {
				if q.Time < r.Time {
					t.Errorf("%d requests a start reach it in %d rounds, %v, before the plan's %v", k, n, q.Time, r.Time)
				}
				break
			}
		}
	}
	// An ask that min alone (5 rounds, no look after it) reaches: the
	// quickest schedule is min alone, at one request a start.
	one := demo(t, "schedule.requests=1")
	alone := planner.New(one, vmHost(), planner.Options{Budget: 2 * time.Minute}).Schedule
	if r := planner.New(one, vmHost(), planner.Options{MDE: alone.MDE()}).Ask.Reach; r == nil || r.Max != 5 || r.Every != 0 || r.Requests != 1 {
		t.Errorf("an ask that min alone reaches (%.2f%%): reach %+v", 100*alone.MDE(), r)
	}
	if a := planner.New(s, vmHost(), planner.Options{MDE: 0.01}).Ask; !a.BelowMinEffect || a.Reach != nil || a.MinEffect != 0.01 {
		t.Errorf("an ask at min_effect: %+v", a)
	}
}

// TestAskOutOfBudget: an ask the budget does not allow says the best the
// budget allows, the time the ask takes, and the noise of a start's draw
// under which the budget would reach it: a host that quiet does.
func TestAskOutOfBudget(t *testing.T) {
	s := demo(t)
	const x, budget = 0.03, 10 * time.Minute
	a := planner.New(s, vmHost(), planner.Options{MDE: x, Budget: budget}).Ask
	if a.InBudget || a.Reach == nil || a.Reach.Time <= budget || a.Best == nil || a.Best.Time > budget || a.Best.MDE() <= x {
		t.Fatalf("ask %+v, reach %+v, best %+v", a, a.Reach, a.Best)
	}
	if w := a.Windows; w == nil || w.MaxTokens%256 != 0 || w.MaxTokens <= 256 || w.Time > budget {
		t.Errorf("longer windows %+v", w)
	}
	if !(a.QuietCV > 0 && a.QuietCV < a.NowCV) || math.Abs(a.NowCV-0.025) > 1e-9 {
		t.Fatalf("quiet CV %v, now %v", a.QuietCV, a.NowCV)
	}
	quiet := vmHost()
	quiet.Between = math.Log1p(a.QuietCV * a.QuietCV * 0.98)
	if q := planner.New(s, quiet, planner.Options{MDE: x, Budget: budget}).Ask; !q.InBudget {
		t.Errorf("a host of CV %.2f%% between starts does not reach it within %v: %+v", 100*a.QuietCV, budget, q.Best)
	}
	// A budget that holds min alone and no later look: the best within it
	// is min alone, what the plan's own schedule runs (plan --budget 2m
	// said the schedule runs 5 rounds within it, then that not even the
	// first look fits).
	one := demo(t, "schedule.requests=1")
	p := planner.New(one, vmHost(), planner.Options{MDE: x, Budget: 2 * time.Minute})
	if b := p.Ask.Best; b == nil || b.Max != 5 || b.Every != 0 || b.Time > 2*time.Minute || b.MDE() != p.Schedule.MDE() {
		t.Errorf("best within 2m: %+v, the plan's own %+v", b, p.Schedule)
	}
	if b := planner.New(one, vmHost(), planner.Options{MDE: x, Budget: time.Minute}).Ask.Best; b != nil {
		t.Errorf("best within 1m, where min alone takes 2m: %+v", b)
	}
	// Beyond what no noise between starts allows: a quieter host would not.
	if a := planner.New(s, vmHost(), planner.Options{MDE: 0.02, Budget: 5 * time.Minute}).Ask; a.InBudget || a.QuietCV != 0 || a.Best == nil {
		t.Errorf("2%% in 5m: %+v", a)
	}
}

// TestPlanCountsTheReplay: on the 2-core VM demo's figures (a start's
// draw 17.7%, a request's own 12.0%, a start 5.33 s, a request 1.86 s,
// spec-draft-xeon-2026-12-04), one measured request a start looks best
// for its time; but that record's starts got their token ids from their
// warmup, sent whole, which one warmup and one measured request are too
// few for: each start would pay a replay, and the advice is 2. A round
// of one request a start costs the replay too.
func TestPlanCountsTheReplay(t *testing.T) {
	h := vmHost()
	h.Between, h.WithinTok = math.Log1p(0.177*0.177), 256*math.Log1p(0.12*0.12)
	h.Costs = estimate.Costs{Basis: estimate.BasisAnatomy, Start: 5330 * time.Millisecond, Request: 1860 * time.Millisecond}
	if p := planner.New(demo(t), h, planner.Options{}); p.Advice != 1 {
		t.Fatalf("without whole warmups: advice %d, want 1 (the test's premise)", p.Advice)
	}
	h.Costs.IDs = true
	if p := planner.New(demo(t), h, planner.Options{}); p.Advice != 2 {
		t.Errorf("with whole warmups: advice %d, want 2", p.Advice)
	}
	one := planner.New(demo(t, "schedule.requests=1"), h, planner.Options{}).Schedule
	if want := 3 * (5330 + 2*1860) * time.Millisecond; one.Round != want {
		t.Errorf("one request a start: round %v, want %v (a replay's request in each start)", one.Round, want)
	}
}

// TestPlanCountsTheCampaignsComparisons: the host's stalls come from
// every comparison of its records, but the campaign planned refuses when
// one of its own comparisons sees too many far rounds: the MDE planned
// depends on the stalls seen, not on how many records they were seen in.
// (Counted over the records' comparisons, ten of them, a 10-round
// schedule on a host that stalls one round in seven reached no MDE at
// all, where the campaign's records state one.)
func TestPlanCountsTheCampaignsComparisons(t *testing.T) {
	split := func(records int) planner.Host {
		h := vmHost()
		h.Stalls = nil
		for range 2 * records {
			h.Stalls = append(h.Stalls, stats.Stalls{Runs1: 150 / records, Runs2: 150 / records, Trimmed: 20 / records})
		}
		h.Trimmed, h.Far, h.Compared = 40, 40, 300
		return h
	}
	s := simScenario(t, "10", 1)
	one := planner.New(s, split(1), planner.Options{}).Schedule
	for _, records := range []int{2, 5, 10} {
		got := planner.New(s, split(records), planner.Options{}).Schedule
		if got.Up == 0 || math.Abs(got.Up-one.Up) > 1e-9 || math.Abs(got.Down-one.Down) > 1e-9 {
			t.Errorf("stalls seen in %d records: MDE +%.2f%% / -%.2f%%, in one: +%.2f%% / -%.2f%%", records, 100*got.Up, 100*got.Down, 100*one.Up, 100*one.Down)
		}
	}
	t.Logf("10 rounds, a round in 7.5 far: MDE +%.2f%% / -%.2f%%", 100*one.Up, 100*one.Down)
}

// TestPlanStallRange: where the host saw stalls, the plan says what the
// schedule would detect at either end of their share's 80% interval: the
// ends bracket the share seen, fewer stalls detect less, more detect
// more, the schedule's own MDE lies between; from more rounds seen at the
// same share the interval narrows. A host that saw none has no range.
func TestPlanStallRange(t *testing.T) {
	s := simScenario(t, "{min: 5, max: 20, every: 5}", 1)
	var width float64
	for _, times := range []int{1, 10} {
		h := vmHost()
		for i := range h.Stalls {
			h.Stalls[i].Runs1, h.Stalls[i].Runs2, h.Stalls[i].Trimmed = times*50, times*50, times*6
		}
		h.Trimmed, h.Far, h.Compared = times*12, times*12, times*100
		p := planner.New(s, h, planner.Options{})
		r := p.Stalls
		if r == nil {
			t.Fatalf("%d×: no stall range from %d far rounds of %d", times, h.Far, h.Compared)
		}
		t.Logf("%d× the rounds: %.1f%% seen, %.1f%% to %.1f%%: +%.2f%% to +%.2f%% (the schedule's +%.2f%%)", times, 100*r.Seen, 100*r.Lo, 100*r.Hi, 100*r.UpLo, 100*r.UpHi, 100*p.Schedule.Up)
		if !(r.Lo < r.Seen && r.Seen < r.Hi) || math.Abs(r.Seen-0.12) > 1e-9 {
			t.Errorf("%d×: interval %.3f to %.3f around %.3f, want it about 0.12", times, r.Lo, r.Hi, r.Seen)
		}
		if !(r.UpLo > 0 && r.UpLo < p.Schedule.Up && p.Schedule.Up < r.UpHi) || !(r.DownLo < p.Schedule.Down && p.Schedule.Down < r.DownHi) {
			t.Errorf("%d×: MDE +%.4f / -%.4f at the low end, +%.4f / -%.4f at the high, the schedule's +%.4f / -%.4f between them", times, r.UpLo, r.DownLo, r.UpHi, r.DownHi, p.Schedule.Up, p.Schedule.Down)
		}
		if times > 1 && r.Hi-r.Lo >= width/2 {
			t.Errorf("ten times the rounds: interval %.3f wide, %.3f from a tenth of them", r.Hi-r.Lo, width)
		}
		width = r.Hi - r.Lo
		// The schedule an ask finds says it too.
		a := planner.New(s, h, planner.Options{MDE: 0.03}).Ask
		if a == nil || a.Reach == nil || a.Stalls == nil || !(a.Stalls.UpLo < a.Reach.Up && a.Reach.Up < a.Stalls.UpHi) {
			t.Errorf("%d×: an ask of 3%%: %+v", times, a)
		}
	}
	h := vmHost()
	for i := range h.Stalls {
		h.Stalls[i].Trimmed = 0
	}
	h.Trimmed, h.Far = 0, 0
	if p := planner.New(s, h, planner.Options{}); p.Stalls != nil {
		t.Errorf("a host without stalls: stall range %+v", *p.Stalls)
	}
}

// The longer windows an out-of-budget ask proposes fit the engine's
// context: the demo's llama-server has -c 1024 and one slot, so of
// max_tokens ×2, ×4 and ×8 only ×2 (512) fits beside its 16-byte prompt
// (plan proposed 2048 tokens, which the engine cannot serve); with no
// room for ×2 none is proposed and the ask says why; a context that holds
// them all cuts none.
func TestAskWindowsFitTheContext(t *testing.T) {
	const x, budget = 0.03, 10 * time.Minute
	withContext := func(c string) *planner.Ask {
		s := demo(t)
		i := slices.Index(s.Engine.Command, "-c")
		if i < 0 || s.Engine.Command[i+1] != "1024" {
			t.Fatalf("the demo's command gives no -c 1024: %q", s.Engine.Command)
		}
		s.Engine.Command[i+1] = c
		return planner.New(s, vmHost(), planner.Options{MDE: x, Budget: budget}).Ask
	}
	if a := withContext("1024"); a.Windows == nil || a.Windows.MaxTokens != 512 || a.SlotTokens != 1024-len("Once upon a time")-1 {
		t.Errorf("-c 1024: windows %+v, slot tokens %d", a.Windows, a.SlotTokens)
	}
	if a := withContext("400"); a.Windows != nil || a.SlotTokens != 400-17 {
		t.Errorf("-c 400: windows %+v, slot tokens %d", a.Windows, a.SlotTokens)
	}
	if a := withContext("8192"); a.Windows == nil || a.Windows.MaxTokens <= 512 || a.SlotTokens != 0 {
		t.Errorf("-c 8192: windows %+v, slot tokens %d", a.Windows, a.SlotTokens)
	}
}
