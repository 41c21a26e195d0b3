package analysis

import (
	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
)

// LookSpending is how a rule spends alpha over a sequential schedule's
// looks (schedule.rounds with every) and judges the family of test arms
// at a look.
type LookSpending interface {
	// levels are the level every comparison is first judged at, its
	// interval's confidence, and the sequential account.
	levels(in Input) (alpha, confidence float64, seq *schema.Sequential)
	sequential() bool
	// design is verdict i's sequential design at its own level, for its
	// MDE (empty when the MDE models looks otherwise).
	design(j *judgement, i int, level float64) stats.Design
	// decide judges the test arms' verdicts: which are significant, at
	// which level, and the intervals that go with it.
	decide(j *judgement)
	// decided reports whether a look with these verdicts and flags may
	// stop a sequential schedule.
	decided(verdicts []schema.ArmVerdict, flags []schema.Reason) bool
}

// FixedLevel judges at the policy's alpha and confidence whatever the
// schedule: looks are not spent, and a campaign stops at its maximum.
type FixedLevel struct{}

func (FixedLevel) levels(in Input) (float64, float64, *schema.Sequential) {
	return in.Policy.Stats.Alpha, in.Policy.Stats.Confidence, nil
}

func (FixedLevel) sequential() bool { return false }

func (FixedLevel) design(*judgement, int, float64) stats.Design { return stats.Design{} }
func (FixedLevel) decide(j *judgement)                          { holm(j) }
func (FixedLevel) decided(v []schema.ArmVerdict, _ []schema.Reason) bool {
	return everySignificant(v)
}

// BonferroniLooks spends alpha evenly over the schedule's planned looks:
// each look judges at alpha/k with intervals at 1 − (1−confidence)/k, so
// the chance of a false claim over every look stays at most alpha.
type BonferroniLooks struct{}

func (BonferroniLooks) levels(in Input) (alpha, confidence float64, seq *schema.Sequential) {
	p := in.Policy
	alpha, confidence = p.Stats.Alpha, p.Stats.Confidence
	looks := p.Schedule.Rounds.Looks()
	if len(looks) == 0 {
		return alpha, confidence, nil
	}
	k := float64(len(looks))
	alpha /= k
	confidence = 1 - (1-confidence)/k
	seq = &schema.Sequential{Every: p.Schedule.Rounds.Every, PlannedLooks: len(looks), AlphaPerLook: alpha, Looks: looksTaken(in)}
	seq.AlphaSpent = alpha * float64(len(seq.Looks))
	return alpha, confidence, seq
}

func (BonferroniLooks) sequential() bool { return true }

func (BonferroniLooks) design(*judgement, int, float64) stats.Design { return stats.Design{} }
func (BonferroniLooks) decide(j *judgement)                          { holm(j) }
func (BonferroniLooks) decided(v []schema.ArmVerdict, _ []schema.Reason) bool {
	return everySignificant(v)
}

// holm judges the test arms by Holm's method at the look's level: an
// arm's adjusted p (stated when the family has several) must be below
// it, and the test and the interval are said to disagree by the adjusted
// p.
func holm(j *judgement) {
	p := j.in.Policy
	var ps []float64
	for _, v := range j.verdicts {
		if !v.Control {
			ps = append(ps, v.Comparison.P)
		}
	}
	adj := stats.Holm(ps)
	k := 0
	for i := range j.verdicts {
		c := &j.verdicts[i].Comparison
		if j.verdicts[i].Control {
			continue
		}
		if len(ps) > 1 {
			c.AdjustedP = adj[k]
		}
		pp := adj[k]
		k++
		c.Significant = c.Significant && pp < j.alpha
		c.Disagreement = disagreement(schema.Comparison{Ratio: c.Ratio, Lo: c.Lo, Hi: c.Hi, P: pp}, j.alpha, p.Stats.MinEffect)
	}
}

// everySignificant reports whether every test arm is significant (and
// there is one).
func everySignificant(verdicts []schema.ArmVerdict) bool {
	decided, any := true, false
	for _, v := range verdicts {
		if !v.Control {
			any = true
			decided = decided && v.Comparison.Significant
		}
	}
	return any && decided
}

// looksTaken are the rounds of the sequential looks taken so far; nil for
// a fixed schedule.
func looksTaken(in Input) []int {
	rounds := roundsRun(in)
	var out []int
	for _, l := range in.Policy.Schedule.Rounds.Looks() {
		if l <= rounds {
			out = append(out, l)
		}
	}
	return out
}

// planned is the most rounds the schedule allows at its k-th look: the
// budget's plan then (Campaign.PlannedRounds), else max; past the plans,
// under SpendingLooks.LatestPlan, the latest plan. Before the first look
// (k < 0: a campaign that stopped before its first look's rounds) it is
// the first look's plan.
func planned(in Input, k int) int {
	k = max(k, 0)
	pr := in.Campaign.PlannedRounds
	if sl, ok := in.Campaign.Rule.Looks.(SpendingLooks); ok && sl.LatestPlan && k >= len(pr) && len(pr) > 0 {
		k = len(pr) - 1
	}
	if k < len(pr) {
		return min(pr[k], in.Policy.Schedule.Rounds.Max)
	}
	return in.Policy.Schedule.Rounds.Max
}

// lastLook reports whether the k-th look, after l rounds, is the
// schedule's last: at max, or where the budget leaves no room for the next.
func lastLook(in Input, k, l int) bool {
	r := in.Policy.Schedule.Rounds
	return l >= r.Max || (k < len(in.Campaign.PlannedRounds) && planned(in, k)-l < r.Every)
}

// roundsRun is the highest round with a run.
func roundsRun(in Input) int {
	n := 0
	for _, r := range in.Runs {
		n = max(n, r.Round)
	}
	return n
}

// SequentialDone reports whether a sequential schedule may stop after the
// runs in: at a look, when every test arm's verdict is decided (a
// significant change), or at the last look; and the analysis it judged.
// It is false between looks, for a schedule without looks and under a rule
// that does not spend alpha over looks. A look that goes on is judged
// without the MDEs, which decide nothing and cost most of an analysis
// (its Analysis has them zero); a look that stops returns the whole
// analysis, as Analyze gives it.
func SequentialDone(in Input) (bool, Analysis) {
	in = resolved(in)
	r := in.Policy.Schedule.Rounds
	rounds := roundsRun(in)
	look := -1
	for k, l := range r.Looks() {
		if l == rounds {
			look = k
		}
	}
	if look < 0 || !in.Campaign.Rule.Sequential() {
		return false, Analysis{}
	}
	if lastLook(in, look, rounds) {
		return true, Analyze(in)
	}
	judged := in
	judged.decisionOnly = true
	a := Analyze(judged)
	if a.Sequential != nil && a.Sequential.Decided {
		return true, Analyze(in)
	}
	return false, a
}

// sequential is the sequential account of a campaign under a schedule
// with looks; Decided when the rule's look spending says the look may stop
// the schedule.
func sequential(in Input, verdicts []schema.ArmVerdict, flags []schema.Reason) *schema.Sequential {
	_, _, seq := in.Campaign.Rule.Looks.levels(in)
	if seq == nil {
		return nil
	}
	seq.Decided = in.Campaign.Rule.Looks.decided(verdicts, flags)
	return seq
}
