package analysis

import (
	"github.com/decodebench/decodebench/schema"
)

// LookSpending is how a rule spends alpha over a sequential schedule's
// looks (schedule.rounds with every): the level every comparison is
// judged at, its interval's confidence, and the sequential account.
type LookSpending interface {
	levels(in Input) (alpha, confidence float64, seq *schema.Sequential)
	sequential() bool
}

// FixedLevel judges at the policy's alpha and confidence whatever the
// schedule: looks are not spent, and a campaign stops at its maximum.
type FixedLevel struct{}

func (FixedLevel) levels(in Input) (float64, float64, *schema.Sequential) {
	return in.Policy.Stats.Alpha, in.Policy.Stats.Confidence, nil
}

func (FixedLevel) sequential() bool { return false }

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
// that does not spend alpha over looks.
func SequentialDone(in Input) (bool, Analysis) {
	in = resolved(in)
	r := in.Policy.Schedule.Rounds
	rounds := roundsRun(in)
	atLook := false
	for _, l := range r.Looks() {
		atLook = atLook || l == rounds
	}
	if !atLook || !in.Campaign.Rule.Sequential() {
		return false, Analysis{}
	}
	a := Analyze(in)
	if rounds >= r.Max {
		return true, a
	}
	return a.Sequential != nil && a.Sequential.Decided, a
}

// sequential is the sequential account of a campaign under a schedule
// with looks; Decided when every test arm is significant.
func sequential(in Input, verdicts []schema.ArmVerdict) *schema.Sequential {
	_, _, seq := in.Campaign.Rule.Looks.levels(in)
	if seq == nil {
		return nil
	}
	decided, any := true, false
	for _, v := range verdicts {
		if !v.Control {
			any = true
			decided = decided && v.Comparison.Significant
		}
	}
	seq.Decided = any && decided
	return seq
}
