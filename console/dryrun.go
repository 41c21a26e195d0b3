package console

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/estimate"
	"github.com/decodebench/decodebench/harness"
	"github.com/decodebench/decodebench/internal/abbrev"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/scenarios"
)

// DryRun writes what run would do, and runs nothing: the arms with their
// resolved engine command lines, the interleaved order, the estimated
// duration by the costs c (found in the records folder dir, or guessed),
// and the notes after it (what the schedule detects here).
func DryRun(w io.Writer, s *scenarios.Scenario, c estimate.Costs, dir string, notes ...string) error {
	rounds := max(s.Schedule.Rounds.Min, s.Schedule.Rounds.Max)
	plan, err := harness.Plan(s.ArmNames(), rounds, s.Policy.Schedule.Order, s.Schedule.Seed)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "plan of %s (%s), scenario hash %s\n", s.Path, s.Feature, abbrev.Hash(s.Hash()))
	if len(s.Overrides) > 0 {
		fmt.Fprintf(w, "overrides: %s\n", strings.Join(s.Overrides, ", "))
	}
	writeEngine(w, s)
	if s.Engine.IsCommand() {
		fmt.Fprintf(w, "arms (baseline %s):\n", s.Baseline)
	} else {
		fmt.Fprintf(w, "arms (baseline %s; ${PORT} is chosen at each start):\n", s.Baseline)
	}
	for _, a := range s.Arms {
		writeArm(w, s, a)
	}
	writeSchedule(w, s)
	for i := 0; i < len(plan); i += len(s.Arms) {
		fmt.Fprintf(w, "  round %d: %s\n", plan[i].Round, strings.Join(harness.Arms(plan[i:i+len(s.Arms)]), " "))
	}
	sh := s.EstimateShape()
	fmt.Fprintf(w, "estimated duration: %s, %s; see validate --help\n", scenarios.Round(estimate.Duration(sh, c)), EstimateBasis(sh, c, dir))
	for _, n := range notes {
		fmt.Fprintln(w, n)
	}
	fmt.Fprintln(w, "dry run: nothing was started and no record was written")
	return nil
}

// writeEngine says what the engine is and what is read from it.
func writeEngine(w io.Writer, s *scenarios.Scenario) {
	e := s.Engine
	if e.IsCommand() {
		// A command engine has no ready path, metrics endpoint, request
		// or port: it runs, prints and exits.
		reads := slices.Sorted(maps.Keys(e.Output.Metrics))
		if e.Output.Tokens != "" {
			reads = append(reads, "tokens")
		}
		fmt.Fprintf(w, "engine: command, run once per warmup and per measured run (%s, reading %s from its output; wall_s is its wall time)\n",
			orDash(e.Preset), strings.Join(append(reads, "counters"), ", "))
	} else {
		fmt.Fprintf(w, "engine: %s (ready %s, metrics %s, request %s, %d tokens)\n",
			orDash(e.Preset), e.Ready.Path, e.MetricsPath, e.Request.Endpoint, e.Request.MaxTokens)
	}
	if vc := s.VersionCommand(); len(vc) > 0 {
		fmt.Fprintf(w, "version command: %s\n", termsafe.ShellJoin(vc))
	}
}

// writeArm writes an arm: its role, its engine's command line, source,
// version command and environment.
func writeArm(w io.Writer, s *scenarios.Scenario, a scenarios.Arm) {
	role := ""
	switch {
	case a.Name == s.Baseline:
		role = " (baseline)"
	case a.Control:
		role = " (negative control)"
	}
	l := s.Launch(a.Name)
	if l.Own {
		role += " (its own engine)"
	}
	switch n := s.Streams(a.Name); {
	case a.Concurrency == nil:
	case n == 1:
		role += " (1 stream)"
	default:
		role += fmt.Sprintf(" (%d streams at once)", n)
	}
	fmt.Fprintf(w, "  %s%s:\n    %s\n", a.Name, role, termsafe.ShellJoin(l.Command))
	if l.Own && l.Source != "" {
		fmt.Fprintf(w, "    source: %s\n", l.Source)
	}
	if l.Own && a.Engine != nil && len(a.Engine.VersionCommand) > 0 {
		fmt.Fprintf(w, "    version command: %s\n", termsafe.ShellJoin(l.VersionCommand))
	}
	if len(l.Env) > 0 {
		keys := slices.Sorted(maps.Keys(l.Env))
		for i, k := range keys {
			keys[i] = k + "=" + termsafe.ShellJoin([]string{l.Env[k]})
		}
		fmt.Fprintf(w, "    env: %s\n", strings.Join(keys, " "))
	}
}

// writeSchedule writes the order, the rounds, the warmups and cooldown,
// the requests a start and the prefix cache's state.
func writeSchedule(w io.Writer, s *scenarios.Scenario) {
	command := s.Engine.IsCommand()
	warm := "warmup request(s)"
	if command {
		warm = "warmup run(s) of the command"
	}
	fmt.Fprintf(w, "order: %s, %s, %d %s before each, cooldown %s\n", s.Policy.Schedule.Order, runs(s), s.Schedule.Warmup, warm, s.Schedule.Cooldown.Duration)
	if n := s.Policy.Schedule.Requests; n > 1 {
		fmt.Fprintf(w, "requests: %d measured per engine start, analysed per start (their geometric mean)\n", n)
	}
	if pc := s.Policy.PrefixCache; !command {
		fmt.Fprintf(w, "prefix cache: %s (%s)\n", pc.State, pc.Why)
	}
}

// runs says how many rounds and measured runs the campaign has, and how a
// sequential or adaptive schedule decides when to stop.
func runs(s *scenarios.Scenario) string {
	r, arms := s.Schedule.Rounds, len(s.Arms)
	switch {
	case r.Sequential() && r.MaxTime.Duration > 0:
		r = r.OnGrid() // a budget's looks stop on the grid
		return fmt.Sprintf("%d to at most %d rounds × %d arms within a budget of %s (sequential: ", r.Min, r.Max, arms, r.MaxTime) +
			fmt.Sprintf("the verdict looked at every %d rounds from %d, stopping at the first look that decides every test arm, ", r.Every, r.Min) +
			"or at the look after which the budget leaves no room for the next, alpha spent over the looks the budget allows); " +
			fmt.Sprintf("the first %d rounds shown", r.Max)
	case r.Sequential():
		looks := r.Looks()
		return fmt.Sprintf("%d to %d rounds × %d arms (sequential: ", r.Min, r.Max, arms) +
			fmt.Sprintf("the verdict looked at after rounds %s, stopping at the first look that decides every test arm, ", joinInts(looks)) +
			fmt.Sprintf("alpha spent over the %d looks); the first %d rounds shown", len(looks), r.Max)
	case r.Adaptive():
		return fmt.Sprintf("%d to %d rounds × %d arms (adaptive, until the ratio intervals are narrower than %s); the first %d rounds shown",
			r.Min, r.Max, arms, r.UntilCIWidth, r.Max)
	}
	return fmt.Sprintf("%d rounds × %d arms = %d measured runs", r.Min, arms, r.Min*arms)
}

func orDash(s string) string {
	if s == "" {
		return "no preset"
	}
	return "preset " + s
}

// joinInts lists numbers separated by commas.
func joinInts(xs []int) string {
	var out []string
	for _, x := range xs {
		out = append(out, fmt.Sprint(x))
	}
	return strings.Join(out, ", ")
}
