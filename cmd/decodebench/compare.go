package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/decodebench/decodebench/console"
	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/harness"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/planner"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/scenarios"
)

func compareCommand() *cli.Command {
	return &cli.Command{
		Name:      "compare",
		Usage:     "compare two llama-server command lines (builds or settings) without a scenario file",
		ArgsUsage: "-- BASE_CMD... -- HEAD_CMD... | --base BIN --head BIN -- ARGS...",
		Description: `Runs an interleaved campaign of two llama-server command lines, as run does
with a scenario: base is the baseline, head is compared with it. The scenario is the
llama.cpp preset's (the starter's request, schedule and quiet gate); decodebench adds
--host 127.0.0.1 --port ${PORT} to a command that does not say where to listen.

  decodebench compare --rounds 3 -- llama-server -m m.gguf -t 2 -- llama-server -m m.gguf -t 1
  decodebench compare --base old/llama-server --head new/llama-server -- -m m.gguf

Each run proves which command line it ran with a counter chosen from what differs: the
build each binary reports (GET /props, when their --version builds differ), the thread
count the server states at start-up (-t), or speculative decoding (--spec-type none
against another). Without one the campaign is UNVERIFIED, saying so. Two identical
command lines are refused, as run refuses an accidental A/A comparison.

The record goes to the clone's scratch/ unless --out names a folder. The scenario it ran
is stored in the record's data folder (scenario.yaml): compare prints its path, to edit
and run again with decodebench run. Exit codes are run's.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "base", Usage: "the base engine binary `BIN`, run with the arguments after --"},
			&cli.StringFlag{Name: "head", Usage: "the head engine binary `BIN`, run with the arguments after --"},
			&cli.StringFlag{Name: "out", Usage: "folder for the record and its data folder (default: the clone's scratch/)"},
			&cli.StringFlag{Name: "hw", Usage: "hardware slug for the record name (default: detected)"},
			&cli.StringFlag{Name: "date", Usage: "record date, YYYY-MM-DD (default: today)"},
			&cli.BoolFlag{Name: "json", Usage: "print a machine-readable summary on stdout instead of the verdict line"},
			&cli.IntFlag{Name: "rounds", Usage: "measured runs per arm (default: the preset's sequential schedule, 5 to 30)"},
			&cli.GenericFlag{Name: "set", Value: &repeatable{}, Usage: "override one value of the scenario, `PATH=VALUE` (PATH a key's dotted path); repeatable"},
			&cli.BoolFlag{Name: "dry-run", Usage: "print the scenario and the plan, and run nothing"},
			waitLockFlag,
		},
		Action: func(c *cli.Context) error {
			base, head, err := compareSides(c.Args().Slice(), c.String("base"), c.String("head"))
			if err != nil {
				return err
			}
			// The scenario compare writes replaces ${NAME} in its command
			// lines, and has no way to keep one as it is: an argument
			// holding one would run as something else (x${HOME}y as
			// x/rooty). ${PORT} is the port chosen at each start, as
			// compare's own --port is.
			for _, a := range append(slices.Clone(base), head...) {
				if scenarios.HasVarRef(a) {
					return usageError("compare: the argument %s holds ${…}, which the scenario compare writes would replace by a variable's value: write a scenario and run it (decodebench run) to pass it otherwise", termsafe.ShellJoin([]string{a}))
				}
			}
			if c.IsSet("rounds") && c.Int("rounds") < 1 {
				return usageError("compare --rounds: at least 1")
			}
			if err := recordNameFlags(c, "compare"); err != nil {
				return err
			}
			arms := scenarios.CompareArms{Base: base, Head: head, Rounds: c.Int("rounds")}
			if base[0] != head[0] {
				// Two binaries: each one's build, for the counter that
				// proves which served a run.
				arms.BaseVersion, _ = engine.VersionOf(c.Context, []string{base[0], "--version"}, nil)
				arms.HeadVersion, _ = engine.VersionOf(c.Context, []string{head[0], "--version"}, nil)
			}
			src := scenarios.Compare(arms)
			set := *c.Generic("set").(*repeatable)
			origin := scenarios.CompareOrigin(arms, c.String("base") != "", set)
			s, warns, err := scenarios.Parse(compareScenarioName, ".", src, scenarios.Options{Set: set, Origin: origin})
			if s != nil {
				learnSecrets(harness.NewRedactor(s))
			}
			var warnings []string
			for _, w := range warns {
				fmt.Fprintln(stderr, w)
				// The record names the scenario by its path, as before.
				warnings = append(warnings, w.Stored())
			}
			if err != nil {
				return &exitError{code: 1, msg: fmt.Sprintf("compare: %v\nthe scenario it built:\n%s", err, src)}
			}
			if err := recordNameOf(c, "compare", s.Feature, s.Hardware); err != nil {
				return err
			}
			out := scratchOut
			if c.IsSet("out") {
				out = c.String("out")
			}
			if c.Bool("dry-run") {
				fmt.Fprintf(c.App.Writer, "%s\n", src)
				est := newEstimator(c.Context, out)
				p := planner.New(s, newPlanRecords(c.Context, est.Dir).Host(s), planner.Options{})
				return console.DryRun(c.App.Writer, s, est.Costs(s.EstimateShape()), est.Dir, "plan: "+console.PlanLine(p, s, est.Dir))
			}
			var place []string
			for _, f := range []string{"hw", "date"} {
				if c.IsSet(f) {
					place = append(place, "--"+f, c.String(f))
				}
			}
			return runLoaded(c, "compare", s, campaignPlace{out: out, warnings: warnings}, printRerun(set, append([]string{"--out", out}, place...)))
		},
	}
}

// compareScenarioName names the scenario compare builds in the record;
// the file itself is the data folder's scenario.yaml, and messages name
// what on the command line a key came from (scenarios.CompareOrigin).
const compareScenarioName = "compare.yaml"

// compareSides splits compare's arguments into the base and head command
// lines: `BASE_CMD... -- HEAD_CMD...` (the first -- is the command line's
// own, before them), or with --base and --head the arguments both
// binaries run with.
func compareSides(args []string, base, head string) ([]string, []string, error) {
	const form = "decodebench compare [flags] -- BASE_CMD... -- HEAD_CMD..., or --base BIN --head BIN -- ARGS..."
	switch {
	case (base == "") != (head == ""):
		return nil, nil, usageError("compare: --base and --head go together (%s)", form)
	case base != "":
		if slices.Contains(args, "--") {
			return nil, nil, usageError("compare --base --head: the arguments after -- are both binaries'; no second -- (%s)", form)
		}
		if base == head {
			return nil, nil, usageError("compare: --base and --head name the same binary: an A/A comparison measures nothing but noise")
		}
		return append([]string{base}, args...), append([]string{head}, args...), nil
	}
	i := slices.Index(args, "--")
	switch {
	case len(args) == 0:
		return nil, nil, usageError("compare: name the two command lines (%s)", form)
	case i < 0:
		return nil, nil, usageError("compare: no -- between the base and the head command lines (%s)", form)
	case slices.Contains(args[i+1:], "--"):
		return nil, nil, usageError("compare: more than two command lines; a -- separates the base from the head (%s)", form)
	case i == 0:
		return nil, nil, usageError("compare: the base command line is empty (%s)", form)
	case i == len(args)-1:
		return nil, nil, usageError("compare: the head command line is empty (%s)", form)
	}
	if slices.Equal(args[:i], args[i+1:]) {
		return nil, nil, usageError("compare: the base and the head command lines are the same: an A/A comparison measures nothing but noise; change one")
	}
	return args[:i], args[i+1:], nil
}

// printRerun says where the scenario compare ran is, and how to run it
// again, with the overrides it was given, into the folder it went to
// (place: --out, and --hw and --date where given): run puts a scenario's
// record into the records folder, which from outside a clone is refused
// and inside one is the committed records', not where compare wrote.
func printRerun(set, place []string) func(io.Writer, *harness.Outcome) {
	return func(w io.Writer, done *harness.Outcome) {
		path := filepath.Join(done.DataDir, recorder.ScenarioFile)
		fmt.Fprintf(w, "scenario: %s\n", path)
		again := "decodebench run " + shellQuote(path)
		for _, p := range place {
			again += " " + shellQuote(p)
		}
		for _, s := range set {
			again += " --set " + shellQuote(s)
		}
		fmt.Fprintf(w, "edit it and run it again: %s\n", again)
	}
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:@,+") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
