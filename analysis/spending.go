package analysis

import (
	"math"
	"slices"

	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
)

// SpendingLooks spends alpha over a sequential schedule's looks by a
// Lan-DeMets function (stats.Spending) at the information each arm's
// comparison reached: its rounds kept at each look over the most the
// schedule allows, the whole alpha at the last look. At each look the test
// arms are judged by Holm's method with the levels passed on (an arm's
// local alpha is the family's over the arms not yet rejected, and its
// level the boundary of its own design at that alpha); every arm's interval
// is at the level it was judged at, so the test and the interval agree; a
// look does not stop the schedule on an arm whose own drift is flagged. A
// fixed schedule is one look that spends the whole alpha.
type SpendingLooks struct {
	Spending stats.Spending
	// Budget is how a record states a budget's last look.
	Budget BudgetStatement
	// RefusedLast (rule robust-15) steps a refused comparison down
	// Holm's order last, as if its p were 1 (it can reject nothing):
	// refused first by its small p, it stopped the procedure and held
	// every later arm at alpha/m ("no significant difference: +14.4%
	// [+1.3%, +29.2%], p=0.018 at level 0.025").
	RefusedLast bool
	// LatestPlan (rule robust-16): past a budget's plans (a campaign
	// stopped between looks or in a look's round, where no plan was
	// made) the most rounds allowed are the latest plan's; before, max's
	// (99 where only max_time is given), which stated "2 of 33 looks
	// taken" after a plan of 7 rounds, and read the stop's information
	// below the look before it, where the test held it.
	LatestPlan bool
}

// BudgetStatement is how a record states the information and the alpha
// spent at a budgeted schedule's last look: the look after which the
// budget leaves no room for another, where the test spends what is left
// of alpha.
type BudgetStatement int

const (
	// BudgetByRounds states the rounds run over the rounds the budget
	// planned, as at any other look (robust-4 to robust-9): after 20 of
	// 23 planned rounds a record says 87% of the information and about
	// 0.036 of alpha 0.05 spent, where its test spent 0.05.
	BudgetByRounds BudgetStatement = iota
	// BudgetAsTested states what the test used: the whole information and
	// alpha at the budget's last look; the verdict line names the budget
	// and the rounds it planned at each look.
	BudgetAsTested
)

func (SpendingLooks) sequential() bool { return true }

func (sp SpendingLooks) levels(in Input) (float64, float64, *schema.Sequential) {
	p := in.Policy
	alpha := p.Stats.Alpha
	looks := p.Schedule.Rounds.Looks()
	if len(looks) == 0 {
		return alpha, 1 - alpha, nil
	}
	seq := &schema.Sequential{Every: p.Schedule.Rounds.Every, PlannedLooks: len(looks), Looks: looksTaken(in), Spending: sp.Spending.String()}
	last := planned(in, len(seq.Looks)-1)
	if len(in.Campaign.PlannedRounds) > 0 {
		seq.PlannedLooks = 0
		for _, l := range looks {
			if l <= last {
				seq.PlannedLooks++
			}
		}
	}
	seq.Information = math.Min(1, float64(roundsRun(in))/float64(last))
	for k, l := range seq.Looks {
		if sp.Budget == BudgetAsTested && lastLook(in, k, l) {
			seq.Information = 1 // as the test's design has it (info): the last look spends the rest
		}
	}
	seq.AlphaSpent = sp.Spending.Spent(alpha, seq.Information)
	return alpha, 1 - alpha, seq
}

// info is verdict i's design: the information fractions and rounds kept
// at the looks taken (and at the rounds run, when a campaign stopped
// between looks); one look at 1 for a schedule without looks.
func (sp SpendingLooks) info(j *judgement, i int) stats.Design {
	d := stats.Design{Spending: sp.Spending}
	r := j.in.Policy.Schedule.Rounds
	run := roundsRun(j.in)
	looks := looksTaken(j.in)
	if len(looks) == 0 || looks[len(looks)-1] < run {
		looks = append(looks, run)
	}
	if len(r.Looks()) == 0 {
		looks = []int{run}
	}
	for k, l := range looks {
		n := j.rs[i].N1
		if l < run {
			sub := *j
			sub.s = j.s.upTo(j.in, l)
			n = sub.compare(i, j.alpha, 1-j.alpha).N1
		}
		t := 1.0
		if len(r.Looks()) > 0 && !lastLook(j.in, k, l) {
			t = math.Min(1, float64(n)/float64(planned(j.in, k)))
		}
		if k := len(d.Ts); k > 0 && t <= d.Ts[k-1] {
			// Trimming can keep fewer rounds at a later look; information
			// never goes back.
			t = math.Min(1, d.Ts[k-1]+1e-6)
		}
		d.Ts, d.Ns = append(d.Ts, t), append(d.Ns, max(n, 1))
	}
	return d
}

func (sp SpendingLooks) design(j *judgement, i int, level float64) stats.Design { return sp.info(j, i) }

// level is verdict i's two-sided level at its look for a local alpha: the
// boundary its design has at the look.
func (sp SpendingLooks) level(j *judgement, i int, local float64) float64 {
	d := sp.info(j, i)
	cs := stats.Bounds(sp.Spending, local, d.Ts)
	return stats.Nominal(cs[len(cs)-1])
}

// decide is Holm's method with the levels passed on: the arms by their p,
// the k-th (of m) judged at its design's level for alpha/(m−k+1), until
// the first that is not rejected; that one's local alpha is every later
// arm's too. Each arm is then compared again at its level, so that its
// interval is the test's.
func (sp SpendingLooks) decide(j *judgement) {
	p := j.in.Policy
	var idx []int
	for i, v := range j.verdicts {
		if !v.Control {
			idx = append(idx, i)
			continue
		}
		// A negative control is judged alone, at its own design's level.
		level := sp.level(j, i, j.alpha)
		r := j.compare(i, level, 1-level)
		c := j.in.Campaign.Rule.Comparison.store(r, level, p.Stats.MinEffect)
		c.Level = level
		j.verdicts[i].Comparison, j.rs[i] = c, r
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if ra, rb := sp.RefusedLast && j.rs[a].Refused, sp.RefusedLast && j.rs[b].Refused; ra != rb {
			if ra {
				return 1
			}
			return -1
		}
		switch pa, pb := j.rs[a].P, j.rs[b].P; {
		case pa < pb:
			return -1
		case pa > pb:
			return 1
		}
		return 0
	})
	m := len(idx)
	stopped := -1
	for rank, i := range idx {
		local := j.alpha / float64(m-rank)
		if stopped >= 0 {
			local = j.alpha / float64(m-stopped)
		}
		level := sp.level(j, i, local)
		rejected := stopped < 0 && j.rs[i].P < level && !j.rs[i].Refused
		if !rejected && stopped < 0 {
			stopped = rank
			level = sp.level(j, i, j.alpha/float64(m-rank))
		}
		r := j.compare(i, level, 1-level)
		c := j.in.Campaign.Rule.Comparison.store(r, level, p.Stats.MinEffect)
		c.Level = level
		c.Significant = rejected && r.Significant
		j.verdicts[i].Comparison = c
	}
}

// decided: every test arm significant, and none drifting on its own (its
// effect at the end is not its effect at the start).
func (SpendingLooks) decided(verdicts []schema.ArmVerdict, flags []schema.Reason) bool {
	if !everySignificant(verdicts) {
		return false
	}
	for _, f := range flags {
		if d, ok := f.(schema.RelativeDrift); ok {
			for _, v := range verdicts {
				if v.Arm == d.Arm && !v.Control {
					return false
				}
			}
		}
	}
	return true
}

// upTo is the samples of the runs of the first rounds.
func (s samples) upTo(in Input, rounds int) samples {
	out := samples{}
	for arm, idx := range s {
		for _, i := range idx {
			if in.Runs[i].Round <= rounds {
				out[arm] = append(out[arm], i)
			}
		}
	}
	return out
}
