package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/decodebench/decodebench/console"
	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/harness"
	"github.com/decodebench/decodebench/planner"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

func runCommand() *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "run a campaign and write its record",
		ArgsUsage: "SCENARIO | --resume DIR [SCENARIO]",
		Description: `SCENARIO is a file path or the name of a shipped scenario (` + fmt.Sprint(scenarios.Shipped()) + `).

--resume DIR continues an interrupted campaign from its data folder
(docs/benchmark_results/data/<name>): the scenario (by default the one the campaign
started from) must have the same semantic content, and the engine binary the same hash.
The record is written beside the data folder (<out>/data/<name> → <out>/<name>.md);
nothing in the data folder names a path to write, and a link in it is refused. A data
folder this user's decodebench did not write as it is (copied, received) is shown and
asked about before the resume reads what it names or runs anything (--yes skips the
questions); its scenario's prompt_file outside the folder is read only with
--allow-local-files.

Without --out, records go to docs/benchmark_results, which must exist: run from a
decodebench clone, or name the folder with --out. A quick look (--rounds, or --set of a
schedule key) and a failed try (FAILED or REJECTED, moved at its end) go to the clone's
scratch/ instead, which git ignores and decodebench index does not read. A campaign that
cannot start (bad --date, an engine that does not resolve or cannot run) writes nothing.

Quick looks: --rounds N sets schedule.rounds; --set PATH=VALUE (repeatable) sets any single
value of the scenario by its dotted path, e.g. --set schedule.cooldown=0s --set
engine.request.max_tokens=32 --set vars.MODEL_DIR=/models --set arms[1].args[0]=-t. The
values are checked like the file's, they change the scenario's hash, and the record lists
them. --dry-run prints the plan (arms, their engine command lines, the order, the estimated
duration) and runs nothing.

Exit codes: 0 VALID, 1 error or FAILED, 2 INCONCLUSIVE or UNVERIFIED, 3 REJECTED,
130 (SIGINT), 143 (SIGTERM) or 129 (SIGHUP) when interrupted; the record is then marked INCOMPLETE.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Value: defaultOut, Usage: "folder for the record and its data folder (the default must exist: run from a clone, or name one)"},
			&cli.StringFlag{Name: "hw", Usage: "hardware slug for the record name (default: the scenario's, else detected)"},
			&cli.StringFlag{Name: "date", Usage: "record date, YYYY-MM-DD (default: today)"},
			&cli.StringFlag{Name: "resume", Usage: "continue the interrupted campaign whose data folder is `DIR`"},
			&cli.BoolFlag{Name: "json", Usage: "print a machine-readable summary on stdout instead of the verdict line"},
			&cli.IntFlag{Name: "rounds", Usage: "measured runs per arm, instead of the scenario's schedule.rounds"},
			&cli.GenericFlag{Name: "set", Value: &repeatable{}, Usage: "override one value of the scenario, `PATH=VALUE` (PATH a key's dotted path, e.g. schedule.cooldown=0s); repeatable"},
			&cli.BoolFlag{Name: "dry-run", Usage: "print the plan (arms, engine commands, order, estimated duration) and run nothing"},
			&cli.BoolFlag{Name: "allow-local-files", Usage: "with --resume of a data folder this user's decodebench did not write: let its scenario read files of this machine outside the data folder (a prompt_file); the plan names them"},
			&cli.BoolFlag{Name: "yes", Usage: "with --resume of a data folder this user's decodebench did not write as it is (copied, received, changed), or from its stored copy of the scenario: run what it names without asking"},
			waitLockFlag,
			&cli.GenericFlag{Name: "github-summary", Value: newSummaryFlag(), Usage: "append the verdict and headline table to `[FILE]`, $GITHUB_STEP_SUMMARY when none is given (default on when it is set; --github-summary=false turns it off)"},
		},
		Action: func(c *cli.Context) error {
			// Nothing printed shows a secret of this shell, whatever
			// a data folder makes a resume say before it has a scenario.
			learnSecrets(harness.InheritedRedactor())
			resume := c.String("resume")
			arg := c.Args().First()
			var set []string
			if c.IsSet("rounds") {
				set = append(set, scenarios.RoundsOverride(c.Int("rounds")))
			}
			set = append(set, *c.Generic("set").(*repeatable)...)
			if resume != "" && len(set) > 0 {
				return usageError("run --resume: --rounds and --set cannot change a campaign under way")
			}
			switch {
			case resume == "" && c.NArg() != 1:
				return usageError("run: name exactly one scenario (flags may come before or after it)")
			case resume != "" && c.NArg() > 1:
				return usageError("run --resume DIR: at most one scenario")
			}
			if err := recordNameFlags(c, "run"); err != nil {
				return err
			}
			out := c.String("out")
			load := scenarios.Options{Set: set}
			var r *resumeRun
			if resume != "" {
				var err error
				if r, err = prepareResume(c, &resume, &arg, &out); err != nil {
					return err
				}
				// The campaign's overrides (--set, --rounds) apply to
				// the scenario it resumes, named or not.
				load, arg = r.options(), r.scenario
			}
			s, warns, err := scenarios.Load(arg, load)
			if r != nil {
				warns, err = r.loaded(s, warns, err)
			}
			if s != nil {
				learnSecrets(harness.NewRedactor(s))
			}
			var warnings []string
			for _, w := range warns {
				fmt.Fprintln(stderr, w)
				warnings = append(warnings, w.Error())
			}
			if err != nil && r != nil && r.fromState && refusedByRule(err) {
				return &exitError{code: 1, msg: fmt.Sprintf("%v\nthe campaign in %s was started by a decodebench whose rule ran this scenario; rule %s, "+
					"by which its record would now be judged, refuses it, so it cannot be resumed: run the scenario anew with those keys changed; nothing was run",
					err, resume, schema.RuleCurrent)}
			}
			if err != nil {
				return &exitError{code: 1, msg: err.Error()}
			}
			if resume == "" {
				if err := recordNameOf(c, "run", s.Feature, s.Hardware); err != nil {
					return err
				}
			}
			if resume == "" && s.Schedule.Rounds.MaxTime.Duration > 0 {
				// The first look is run whatever the budget: say before
				// anything runs when it is estimated past the budget.
				if w := s.FirstLookOverBudget(newEstimator(c.Context, out).Costs(s.EstimateShape())); w != nil {
					fmt.Fprintln(stderr, w)
				}
			}
			if c.Bool("dry-run") {
				est := newEstimator(c.Context, out)
				plans := newPlanRecords(c.Context, est.Dir)
				p := planner.New(s, plans.Host(s), planner.Options{})
				return console.DryRun(c.App.Writer, s, est.Costs(s.EstimateShape()), est.Dir, "plan: "+console.PlanLine(p, s, est.Dir))
			}
			if r != nil {
				if err := r.allow(c, s); err != nil {
					return err
				}
			}
			outDir, err := outFolder(out, c.IsSet("out"), resume != "")
			if err != nil {
				return &exitError{code: 1, msg: err.Error()}
			}
			failedOut := ""
			if !c.IsSet("out") && resume == "" {
				if q := quickLook(s); len(q) > 0 {
					outDir = scratchOut
					fmt.Fprintf(stderr, "decodebench: run: a quick look (%s): its record goes to %s/, which the index does not read (--out DIR names the folder for it)\n", strings.Join(q, ", "), scratchOut)
				} else {
					failedOut = scratchOut
				}
			}
			pl := campaignPlace{out: outDir, failedOut: failedOut, resume: resume, warnings: warnings, received: r != nil && r.received()}
			return runLoaded(c, "run", s, pl, nil)
		},
	}
}

// campaignPlace is where runLoaded writes a campaign: out, the folder for
// its record; failedOut, where a failed try is moved at its end ("" to
// keep it in out); resume, the data folder of the campaign it continues.
type campaignPlace struct {
	out, failedOut, resume string
	warnings               []string
	// received: the resumed scenario is a file that a data folder not
	// this user's named (harness.Options.ReceivedScenario).
	received bool
}

// runLoaded runs the loaded scenario s as `run` does, for the command
// named cmd: under the host lock, into pl, the GitHub summary appended,
// the verdict printed (then after, when given, in text); its error
// carries the exit code.
func runLoaded(c *cli.Context, cmd string, s *scenarios.Scenario, pl campaignPlace, after func(io.Writer, *harness.Outcome)) error {
	k, err := startCampaign(c, cmd, s.Path)
	if err != nil {
		return err
	}
	defer k.end()
	opt := withHostHistory(k.options(c.App.ErrWriter, pl.out, c.String("hw"), c.String("date")), c.App.ErrWriter)
	opt.ScenarioWarnings, opt.FailedOut, opt.ReceivedScenario = pl.warnings, pl.failedOut, pl.received
	var done *harness.Outcome
	if pl.resume != "" {
		done, err = harness.Resume(k.ctx, pl.resume, s, opt)
	} else {
		done, err = harness.Run(k.ctx, s, opt)
	}
	if err != nil {
		return &exitError{code: 1, msg: err.Error()}
	}
	v := done.Record.Verdict
	code := k.verdictCode(v)
	if gs, ok := c.Generic("github-summary").(*summaryFlag); ok && gs.on {
		if err := appendGitHubSummary(gs.file(), done); err != nil {
			fmt.Fprintln(stderr, "decodebench: github summary:", err)
		}
	}
	if c.Bool("json") {
		if err := printSummary(stdout, done, code); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(stdout, "%s: %s\n", v, done.RecordPath)
		printSummaryText(stdout, done.Record)
		if after != nil {
			after(stdout, done)
		}
	}
	return exitWith(code)
}

// defaultOut is where records go in a decodebench clone.
const defaultOut = "docs/benchmark_results"

// outFolder decides where the record goes. An explicit --out is taken as
// given (a resume checks it against the data folder). The default is the
// clone's docs/benchmark_results, relative to the working folder: when that
// folder does not exist, the working folder is not a decodebench clone, and
// run refuses rather than create docs/benchmark_results wherever it was
// started. A resume without --out writes beside its data folder ("").
func outFolder(out string, set, resume bool) (string, error) {
	switch {
	case set:
		return out, nil
	case resume:
		return "", nil
	}
	if fi, err := os.Stat(defaultOut); err != nil || !fi.IsDir() {
		wd, _ := os.Getwd()
		why := fmt.Sprintf("run: records go to %s by default, and %s has none: it is not a decodebench clone.", defaultOut, wd)
		return "", errors.New(why + " Run from the clone, or name the folder for the record with --out DIR; nothing was written")
	}
	return defaultOut, nil
}

// maxLogLines bounds the engine log lines the summary repeats.
const maxLogLines = 8

// printSummaryText prints the verdict's reasons, one line each, the arms'
// sentences, and the last engine log lines of the last failed run, indented,
// so that a reason never ends on a dangling "last engine log lines:".
func printSummaryText(w io.Writer, rec *schema.Record) {
	a := rec.Analysis
	for _, r := range append(append([]schema.Reason{}, a.Reasons...), a.Flags...) {
		fmt.Fprintln(w, "  "+engine.ParseStartError(strings.TrimSpace(recorder.ReasonText(rec, r))).Reason)
	}
	for _, r := range a.AlsoFailed {
		fmt.Fprintln(w, "  also failed: "+recorder.ReasonText(rec, r))
	}
	printHistoryWarnings(w, rec)
	if rec.Verdict.ShowsResults() {
		for _, v := range a.ArmVerdicts {
			fmt.Fprintln(w, "  "+recorder.ArmVerdictText(rec, v))
		}
	}
	for i := len(rec.Runs) - 1; i >= 0; i-- {
		r := rec.Runs[i]
		if r.Error == "" {
			continue
		}
		lines := engine.ParseStartError(r.Error).LogTail
		if len(lines) == 0 {
			break
		}
		if len(lines) > maxLogLines {
			lines = lines[len(lines)-maxLogLines:]
		}
		fmt.Fprintf(w, "  last engine log lines of run %d (%s, %s):\n", r.Seq, r.Arm, r.Log)
		for _, l := range lines {
			fmt.Fprintln(w, "      "+l)
		}
		break
	}
}

// refusedByRule reports whether err is a scenario's errors of which
// every one is the current rule's refusal (scenarios.Error.Rule).
func refusedByRule(err error) bool {
	var errs scenarios.Errors
	if !errors.As(err, &errs) {
		return false
	}
	rule, other := errs.ByRule()
	return len(rule) > 0 && len(other) == 0
}
