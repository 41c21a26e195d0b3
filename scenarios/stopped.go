package scenarios

import (
	"fmt"
	"slices"
	"time"

	"github.com/decodebench/decodebench/schema"
)

// SequentialStop says why a sequential schedule stopped after rounds, or
// that it goes on (stopped false): done and q are the analysis' answer at
// that look (analysis.SequentialDone), per the time a round has taken
// (RoundTime). The harness writes it to method.stopped_by, before the
// budget's overrun (Overrun), and check derives it again from the runs.
func (r Rounds) SequentialStop(rounds int, done bool, q *schema.Sequential, per time.Duration) (string, bool) {
	budget := r.MaxTime.Duration > 0 && slices.Contains(r.Looks(), rounds)
	switch {
	case done && q != nil && q.Decided:
		return fmt.Sprintf("sequential look after %d rounds decided every test arm (look %d of %d, %s)", rounds, len(q.Looks), q.PlannedLooks, spentText(q)), true
	case done && rounds >= r.Max:
		return fmt.Sprintf("maximum of %d rounds reached at the last sequential look: no decision for every test arm", r.Max), true
	case done && budget && r.Max-rounds < r.Every:
		// Max off the looks' grid (validate warns): the analysis goes on
		// only where every more rounds fit, whatever the budget allows.
		return fmt.Sprintf("budget of %s: the look at max (%d rounds) is %d round(s) on, fewer than every (%d), and a budget's look goes on only a whole every further; "+
			"the look after %d rounds was the last, no decision for every test arm", r.MaxTime, r.Max, r.Max-rounds, r.Every, rounds), true
	case done && budget:
		return fmt.Sprintf("budget of %s: the next look would not fit (a round took %s); the look after %d rounds was the last, no decision for every test arm",
			r.MaxTime, per.Round(time.Second), rounds), true
	}
	until := fmt.Sprint(r.Max)
	if r.MaxTime.Duration > 0 {
		until = fmt.Sprintf("%d or the budget of %s", r.Max, r.MaxTime)
	}
	return fmt.Sprintf("no decision after %d rounds (looks every %d rounds from %d to %s)", rounds, r.Every, r.Min, until), false
}

// spentText says how much alpha a look spent.
func spentText(q *schema.Sequential) string {
	if q.Spending != "" {
		return fmt.Sprintf("%s spending, alpha %.4g spent", q.Spending, q.AlphaSpent)
	}
	return fmt.Sprintf("alpha %.4g a look", q.AlphaPerLook)
}

// SequentialStopWordings are the stopped_by texts builds have written for
// the stop SequentialStop says (stopped true), the current first: before
// 6e591b0 a budget's look at a max off the looks' grid read as the next
// look not fitting.
func (r Rounds) SequentialStopWordings(rounds int, done bool, q *schema.Sequential, per time.Duration) []string {
	want, stopped := r.SequentialStop(rounds, done, q, per)
	if !stopped {
		return nil
	}
	out := []string{want}
	if budget := r.MaxTime.Duration > 0 && slices.Contains(r.Looks(), rounds); done && budget && !(q != nil && q.Decided) && rounds < r.Max && r.Max-rounds < r.Every {
		out = append(out, fmt.Sprintf("budget of %s: the next look would not fit (a round took %s); the look after %d rounds was the last, no decision for every test arm",
			r.MaxTime, per.Round(time.Second), rounds))
	}
	return out
}
