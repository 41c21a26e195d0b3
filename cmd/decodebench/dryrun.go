package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/estimate"
	"github.com/decodebench/decodebench/harness"
	"github.com/decodebench/decodebench/internal/abbrev"
	"github.com/decodebench/decodebench/scenarios"
)

// repeatable is a flag that may be given several times, each value kept
// whole (cli.StringSliceFlag would split --set k='{"a": 1, "b": 2}' at
// its commas).
type repeatable []string

func (r *repeatable) Set(v string) error { *r = append(*r, v); return nil }
func (r *repeatable) String() string     { return strings.Join(*r, " ") }

// printDryRun writes what run would do, and runs nothing: the arms with
// their resolved engine command lines, the interleaved order, and the
// estimated duration (from the newest record of the feature and hardware
// in the folder records go to, when it has one to go by).
func printDryRun(w io.Writer, s *scenarios.Scenario, est estimate.Records) error {
	rounds := max(s.Schedule.Rounds.Min, s.Schedule.Rounds.Max)
	plan, err := harness.Plan(s.ArmNames(), rounds, s.Policy.Schedule.Order, s.Schedule.Seed)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "plan of %s (%s), scenario hash %s\n", s.Path, s.Feature, abbrev.Hash(s.Hash()))
	if len(s.Overrides) > 0 {
		fmt.Fprintf(w, "overrides: %s\n", strings.Join(s.Overrides, ", "))
	}
	command := s.Engine.IsCommand()
	if command {
		// A command engine has no ready path, metrics endpoint, request
		// or port: it runs, prints and exits.
		reads := slices.Sorted(maps.Keys(s.Engine.Output.Metrics))
		if s.Engine.Output.Tokens != "" {
			reads = append(reads, "tokens")
		}
		fmt.Fprintf(w, "engine: command, run once per warmup and per measured run (%s, reading %s from its output; wall_s is its wall time)\n", orDash(s.Engine.Preset), strings.Join(append(reads, "counters"), ", "))
	} else {
		fmt.Fprintf(w, "engine: %s (ready %s, metrics %s, request %s, %d tokens)\n", orDash(s.Engine.Preset), s.Engine.Ready.Path, s.Engine.MetricsPath, s.Engine.Request.Endpoint, s.Engine.Request.MaxTokens)
	}
	if vc := s.VersionCommand(); len(vc) > 0 {
		fmt.Fprintf(w, "version command: %s\n", shellJoin(vc))
	}
	if command {
		fmt.Fprintf(w, "arms (baseline %s):\n", s.Baseline)
	} else {
		fmt.Fprintf(w, "arms (baseline %s; ${PORT} is chosen at each start):\n", s.Baseline)
	}
	for _, a := range s.Arms {
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
		fmt.Fprintf(w, "  %s%s:\n    %s\n", a.Name, role, shellJoin(l.Command))
		if l.Own && l.Source != "" {
			fmt.Fprintf(w, "    source: %s\n", l.Source)
		}
		if l.Own && a.Engine != nil && len(a.Engine.VersionCommand) > 0 {
			fmt.Fprintf(w, "    version command: %s\n", shellJoin(l.VersionCommand))
		}
		env := l.Env
		if len(env) > 0 {
			keys := slices.Sorted(maps.Keys(env))
			for i, k := range keys {
				keys[i] = k + "=" + shellJoin([]string{env[k]})
			}
			fmt.Fprintf(w, "    env: %s\n", strings.Join(keys, " "))
		}
	}
	r := s.Schedule.Rounds
	runs := fmt.Sprintf("%d rounds × %d arms = %d measured runs", r.Min, len(s.Arms), r.Min*len(s.Arms))
	switch {
	case r.Sequential():
		runs = fmt.Sprintf("%d to %d rounds × %d arms (sequential: the verdict looked at after rounds %s, stopping at the first look that decides every test arm, alpha spent over the %d looks); the first %d rounds shown",
			r.Min, r.Max, len(s.Arms), joinInts(r.Looks()), len(r.Looks()), r.Max)
	case r.Adaptive():
		runs = fmt.Sprintf("%d to %d rounds × %d arms (adaptive, until the ratio intervals are narrower than %s); the first %d rounds shown", r.Min, r.Max, len(s.Arms), r.UntilCIWidth, r.Max)
	}
	warm := "warmup request(s)"
	if command {
		warm = "warmup run(s) of the command"
	}
	fmt.Fprintf(w, "order: %s, %s, %d %s before each, cooldown %s\n", s.Policy.Schedule.Order, runs, s.Schedule.Warmup, warm, s.Schedule.Cooldown.Duration)
	if n := s.Policy.Schedule.Requests; n > 1 {
		fmt.Fprintf(w, "requests: %d measured per engine start, analysed per start (their geometric mean)\n", n)
	}
	if pc := s.Policy.PrefixCache; !command {
		fmt.Fprintf(w, "prefix cache: %s (%s)\n", pc.State, pc.Why)
	}
	for i := 0; i < len(plan); i += len(s.Arms) {
		fmt.Fprintf(w, "  round %d: %s\n", plan[i].Round, strings.Join(harness.Arms(plan[i:i+len(s.Arms)]), " "))
	}
	c := est.Costs(s.EstimateShape())
	fmt.Fprintf(w, "estimated duration: %s, %s; see validate --help\n", scenarios.Round(estimate.Duration(s.EstimateShape(), c)), estimateBasis(s, c, est.Dir))
	fmt.Fprintln(w, "dry run: nothing was started and no record was written")
	return nil
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
