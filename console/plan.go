package console

import (
	"fmt"
	"io"
	"slices"

	"github.com/decodebench/decodebench/internal/pct"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/planner"
	"github.com/decodebench/decodebench/scenarios"
)

// Plan writes a plan of scenario s: the host model and what it was read
// from (records of dir), what the scenario's schedule detects here, and
// the answer to an asked MDE.
func Plan(w io.Writer, s *scenarios.Scenario, p planner.Plan, dir string) error {
	veto := ""
	if slices.ContainsFunc(s.Policy.Arms, func(a scenarios.ArmPolicy) bool { return a.Control }) {
		veto = ", a control's veto made up for"
	}
	fmt.Fprintf(w, "plan of %s (%s) under rule %s: a test arm's MDE at %s power, alpha %s over %d test arm(s)%s\n",
		termsafe.String(s.Path), termsafe.String(s.Feature), p.Rule, pct.Rounded(p.Power), pct.Rounded(p.Level*float64(max(1, p.Tests))), p.Tests, veto)
	h := p.Host
	fmt.Fprintf(w, "host model: %s\n", HostBasis(h, s, dir))
	for _, r := range h.Passed {
		fmt.Fprintf(w, "  passed over %s: %s\n", termsafe.String(r.Record), termsafe.String(r.Why))
	}
	fmt.Fprintf(w, "  a run within its round: %s\n", noiseText(h, p.Schedule))
	if h.Basis != planner.BasisGuess {
		fmt.Fprintf(w, "  stalls: %d of %d rounds compared far out, %d trimmed\n", h.Far, h.Compared, h.Trimmed)
	}
	sh := s.EstimateShape()
	fmt.Fprintf(w, "  a round: %s, %s\n", scenarios.Round(p.Schedule.Round), EstimateBasis(sh, h.Costs, dir))
	own := p.Schedule
	what := "this schedule"
	if p.BudgetAsked {
		// A what-if: the campaign the scenario runs has its own budget.
		own := "no max_time"
		if p.OwnBudget > 0 {
			own = "its own max_time " + p.OwnBudget.String()
		}
		what = fmt.Sprintf("this schedule under --budget %s (the scenario has %s; run it with --set schedule.rounds.max_time=%s)", p.Budget, own, p.Budget)
	}
	fmt.Fprintf(w, "%s, %s: %s\n", what, scheduleText(own), detects(own))
	writeStalls(w, p.Stalls, p.Host.Compared)
	switch {
	case p.Over > 0:
		fmt.Fprintf(w, "  the first look alone exceeds the budget of %s by %s at the host's round time "+
			"(a budget stops a campaign only at a look): lower min, or raise the budget\n", p.Budget, scenarios.Round(p.Over))
	case p.Capped:
		fmt.Fprintf(w, "  the budget of %s stops it there at the host's round time\n", p.Budget)
	}
	if p.Advice > 0 && p.Advice != own.Requests {
		fmt.Fprintf(w, "  %d measured requests a start (schedule.requests) would narrow it most for its time\n", p.Advice)
	}
	if p.Ask != nil {
		writeAsk(w, p.Ask)
	}
	return nil
}

// PlanLine is a plan's one line for validate and run --dry-run: what the
// schedule of s detects here, and what it goes by.
func PlanLine(p planner.Plan, s *scenarios.Scenario, dir string) string {
	by := fmt.Sprintf("by %d record(s) of %s", len(p.Host.Records), termsafe.String(p.Host.Hardware))
	switch {
	case p.Host.Basis == planner.BasisGuess:
		by = fmt.Sprintf("by a guess (no record of %s in %s to go by)", termsafe.String(s.Feature), termsafe.String(dir))
	case p.Host.OtherHardware:
		by += fmt.Sprintf(", other hardware: none of %s could be used", whose(s.Hardware, ""))
	}
	return fmt.Sprintf("this schedule %s at %s power (%s), %s; decodebench plan --mde X finds the schedule for a change", mde(p.Schedule), pct.Rounded(p.Power), span(p.Schedule), by)
}

// HostBasis says what the host model of scenario s was read from.
func HostBasis(h planner.Host, s *scenarios.Scenario, dir string) string {
	if h.Basis == planner.BasisGuess {
		return fmt.Sprintf("a guess: a start's draw CV %s, a request's own CV %s at %d tokens, no stalls; no record of %s in %s to go by",
			pct.Rounded(planner.GuessBetweenCV), pct.Rounded(planner.GuessWithinCV), planner.GuessTokens, termsafe.String(s.Feature), termsafe.String(dir))
	}
	of := "this scenario"
	if h.Same < len(h.Records) {
		of = fmt.Sprintf("%d of this scenario, %d of its feature", h.Same, len(h.Records)-h.Same)
	}
	out := fmt.Sprintf("%d record(s) of %s (%s), %d rounds, the newest %s", len(h.Records), termsafe.String(h.Hardware), of, h.Rounds, termsafe.String(h.Records[0]))
	if h.OtherHardware {
		out += fmt.Sprintf("; records of other hardware (%s): none of %s could be used", termsafe.String(h.Hardware), whose(s.Hardware, h.Here))
	}
	return out
}

// noiseText is a run's noise within its round at the schedule's requests
// and tokens, and its parts.
func noiseText(h planner.Host, s planner.Schedule) string {
	v := h.RunVar(s.Requests, s.MaxTokens)
	if s.MaxTokens <= 0 {
		// A command engine's run: no request's tokens to split it by.
		return fmt.Sprintf("CV %s at %d measured request(s) a start", pct.Fixed(planner.CV(v), 1), s.Requests)
	}
	at := fmt.Sprintf("CV %s at %d measured request(s) of %d tokens a start", pct.Fixed(planner.CV(v), 1), s.Requests, s.MaxTokens)
	if !h.Split {
		return at + " (not split: no record's noise anatomy; taken as the start's)"
	}
	within := h.WithinTok / float64(max(1, s.MaxTokens))
	return fmt.Sprintf("%s (a start's draw %s, a request's own %s)", at, pct.Fixed(planner.CV(h.Between), 1), pct.Fixed(planner.CV(within), 1))
}

// scheduleText is a schedule as its keys.
func scheduleText(s planner.Schedule) string {
	r := s.Rounds()
	rounds := fmt.Sprint(r.Max)
	if r.Every > 0 {
		rounds = fmt.Sprintf("{min: %d, max: %d, every: %d}", r.Min, r.Max, r.Every)
	}
	return fmt.Sprintf("rounds %s, requests %d", rounds, s.Requests)
}

// detects is what a schedule detects, and its time.
func detects(s planner.Schedule) string {
	return mde(s) + ", " + span(s)
}

// mde is what a schedule detects.
func mde(s planner.Schedule) string {
	if s.Up <= 0 || s.Down <= 0 {
		return "states no MDE (its stalls would refuse too many campaigns)"
	}
	return "detects " + mdePair(s.Up, s.Down) + " here"
}

// mdePair is an MDE up and down, or none.
func mdePair(up, down float64) string {
	if up <= 0 || down <= 0 {
		return "none"
	}
	return pct.Signed(up, 1) + " / " + pct.Signed(-down, 1)
}

// span is a schedule's rounds and time at most.
func span(s planner.Schedule) string {
	return fmt.Sprintf("at most %d rounds, %s", s.Max, scenarios.Round(s.Time))
}

// writeStalls says how much a schedule's MDE leans on the stalls' share
// (of compared rounds), where the host saw stalls; with compared 0, in
// short, the share's interval having been said.
func writeStalls(w io.Writer, r *planner.StallRange, compared int) {
	if r == nil {
		return
	}
	at := fmt.Sprintf("at %s it detects %s, at %s %s", pct.Fixed(r.Lo, 1), mdePair(r.UpLo, r.DownLo), pct.Fixed(r.Hi, 1), mdePair(r.UpHi, r.DownHi))
	if compared <= 0 {
		fmt.Fprintf(w, "  with the stalls' share %s\n", at)
		return
	}
	fmt.Fprintf(w, "  the stalls' share is uncertain (%s of %d rounds, %s interval %s to %s): %s\n",
		pct.Fixed(r.Seen, 1), compared, pct.Rounded(r.Level), pct.Fixed(r.Lo, 1), pct.Fixed(r.Hi, 1), at)
}

// writeAsk answers an asked MDE.
func writeAsk(w io.Writer, a *planner.Ask) {
	ask := "--mde " + pct.Rounded(a.MDE)
	limit := fmt.Sprintf("%d rounds", planner.MaxRounds)
	if a.Budget > 0 {
		ask += " within " + scenarios.Round(a.Budget)
		limit = scenarios.Round(a.Budget)
	}
	switch {
	case a.BelowMinEffect:
		fmt.Fprintf(w, "%s: out of reach: a change must clear stats.min_effect (%s) to count; lower it to ask this\n", ask, pct.Rounded(a.MinEffect))
		return
	case a.InBudget:
		fmt.Fprintf(w, "%s: %s: %s\n", ask, scheduleText(*a.Reach), detects(*a.Reach))
		writeStalls(w, a.Stalls, 0)
		return
	}
	if a.Budget > 0 && a.Reach == nil && a.Best != nil && a.Best.Rounds().Max+max(1, a.Best.Every) > planner.MaxRounds && a.Best.Time < a.Budget {
		// The budget is not what binds: no plan goes past MaxRounds.
		limit = fmt.Sprintf("%d rounds, the most a plan proposes (the budget of %s would allow more)", planner.MaxRounds, scenarios.Round(a.Budget))
	}
	fmt.Fprintf(w, "%s: out of reach within %s\n", ask, limit)
	if a.Reach != nil {
		fmt.Fprintf(w, "  it takes %s: %s\n", scheduleText(*a.Reach), detects(*a.Reach))
		writeStalls(w, a.Stalls, 0)
	}
	if a.Best == nil {
		fmt.Fprintf(w, "  not even the first look fits\n")
		return
	}
	fmt.Fprintf(w, "  the best within it: %s: %s\n", scheduleText(*a.Best), detects(*a.Best))
	var would []string
	if x := a.Windows; x != nil {
		f := x.MaxTokens / max(1, a.Best.MaxTokens)
		if x.MDE() <= a.MDE {
			would = append(would, fmt.Sprintf("longer windows: max_tokens %d (×%d), %s: %s", x.MaxTokens, f, scheduleText(*x), detects(*x)))
		} else {
			fmt.Fprintf(w, "  longer windows would not: at max_tokens %d (×%d) %s%s\n", x.MaxTokens, f, detects(*x), contextText(a.SlotTokens, x.MaxTokens))
		}
	} else if a.SlotTokens > 0 {
		fmt.Fprintf(w, "  longer windows do not fit: the engine's context holds %d tokens a request (-c over -np, less the prompt), max_tokens ×2 would be %d\n",
			a.SlotTokens, 2*a.Best.MaxTokens)
	}
	if a.QuietCV > 0 {
		would = append(would, fmt.Sprintf("a quieter host: a start's draw at most CV %s (here %s), stalls as here", pct.Fixed(a.QuietCV, 1), pct.Fixed(a.NowCV, 1)))
	} else {
		fmt.Fprintf(w, "  a quieter host would not: not even with no noise between starts (a request's own noise and the stalls remain)\n")
	}
	for _, x := range would {
		fmt.Fprintf(w, "  would reach it: %s\n", x)
	}
}

// contextText says that the engine's context held no longer window than
// tokens, where it cut the windows tried short.
func contextText(slot, tokens int) string {
	if slot == 0 {
		return ""
	}
	return fmt.Sprintf(" (the longest the engine's context holds: %d tokens a request, -c over -np, less the prompt)", slot)
}
