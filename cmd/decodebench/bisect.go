package main

import (
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/decodebench/decodebench/bisect"
	"github.com/decodebench/decodebench/harness"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/reproduce"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

func bisectCommand() *cli.Command {
	return &cli.Command{
		Name:      "bisect",
		Usage:     "find the commit where a performance regression started",
		ArgsUsage: "--source DIR --good REV --bad REV --build CMD SCENARIO | --resume DIR",
		Description: `Each step checks a commit out into its own git worktree (your checkout is never
touched), runs the build command there (sh -c), and runs SCENARIO as a full interleaved
campaign with ${CANDIDATE_DIR} set to that worktree and ${REFERENCE_DIR} to the good
commit's worktree (built once). The scenario's baseline arm runs the reference build and its
one other arm the candidate, e.g. arms[].engine.command: ["${CANDIDATE_DIR}/bin/server", ...].

A step is bad when the candidate is significantly slower on the primary metric by at least
--threshold, good when the interval rules that out, and undecided otherwise: it is run again
with twice the rounds, then skipped as git bisect skip does. A commit that does not build is
skipped. The bad revision is measured first. Each campaign writes its own record; the
summary <out>/bisect-<feature>-<hw>-<date>.md links them all and passes decodebench check.

Each build runs as a tree of its own (its process group, a cgroup where there is one): one
past --build-timeout, or past what is left of --max-time, is killed whole; what a build leaves
running when it exits is killed too. bisect's git runs none of the repository's hooks,
fsmonitor or content filters.

An interrupted bisect resumes from its data folder: decodebench bisect --resume
<out>/data/bisect-<feature>-<hw>-<date>. Its state names a build command, a repository and
a scenario, and may come from someone else: resuming checks it against its summary, the
repository and the scenario, prints what it would build and run, and asks, unless the
build command is given again with --build (the same command) or --yes. A finished bisect's
resume builds, runs and writes nothing.

Exit codes: 0 first bad commit found, 2 the search ended without one (only skipped commits
left, the bad revision not slower, did not build or stayed undecided, or --max-time reached),
1 error, 130/143/129 interrupted (SIGINT/SIGTERM/SIGHUP).`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "source", Value: ".", Usage: "the engine's git repository (`DIR`); only read"},
			&cli.StringFlag{Name: "good", Usage: "a revision without the regression"},
			&cli.StringFlag{Name: "bad", Usage: "a revision with the regression"},
			&cli.StringFlag{Name: "build", Usage: "build command, run with sh -c in each commit's worktree"},
			&cli.StringFlag{Name: "threshold", Value: "3%", Usage: "the slowdown on the primary metric that makes a commit bad"},
			&cli.DurationFlag{Name: "max-time", Value: 4 * time.Hour, Usage: "start no step after this long (over every resume)"},
			&cli.StringFlag{Name: "out", Value: defaultOut, Usage: "folder for the summary; the steps' records go into its data folder"},
			&cli.StringFlag{Name: "hw", Usage: "hardware slug for the records' names (default: the scenario's, else detected)"},
			&cli.StringFlag{Name: "date", Usage: "records' date, YYYY-MM-DD (default: today)"},
			&cli.DurationFlag{Name: "build-timeout", Value: bisect.DefaultBuildTimeout, Usage: "kill a build still running after this long, and skip its commit"},
			&cli.StringFlag{Name: "resume", Usage: "continue the interrupted bisect whose data folder is `DIR`"},
			&cli.BoolFlag{Name: "yes", Usage: "with --resume: build and run what the plan shows without asking"},
			waitLockFlag,
		},
		Action: func(c *cli.Context) error {
			resume := c.String("resume")
			if resume == "" {
				if c.NArg() != 1 {
					return usageError("bisect: name exactly one scenario")
				}
				for _, f := range []string{"good", "bad", "build"} {
					if c.String(f) == "" {
						return usageError("bisect: --%s is required", f)
					}
				}
			} else if c.NArg() > 0 {
				return usageError("bisect --resume DIR: the scenario is the one the bisect started with")
			}
			if c.Bool("yes") && resume == "" {
				return usageError("bisect --yes: only a resume asks (--resume DIR)")
			}
			if c.Duration("build-timeout") < 0 {
				return usageError("bisect --build-timeout: want a duration of 0 (no bound) or more")
			}
			threshold, err := scenarios.ParseFraction(c.String("threshold"))
			if err != nil {
				return usageError("bisect --threshold: %v", err)
			}
			if err := recordNameFlags(c, "bisect"); err != nil {
				return err
			}
			out, err := outFolder(c.String("out"), c.IsSet("out"), resume != "")
			if err != nil {
				return &exitError{code: 1, msg: err.Error()}
			}
			var plan *bisect.ResumePlan
			holder := "bisect " + c.Args().First()
			if resume != "" {
				if plan, err = resumePlan(c, resume); err != nil {
					return err
				}
				if plan.Finished() {
					return bisectDone(&bisect.Outcome{Summary: plan.Summary(), Path: plan.SummaryPath, DataDir: plan.DataDir}, nil)
				}
				holder = "bisect --resume " + plan.SummaryPath
			}
			k, err := startCampaign(c, "bisect", holder)
			if err != nil {
				return err
			}
			defer k.end()
			opt := bisect.Options{
				Harness:      k.options(c.App.ErrWriter, out, c.String("hw"), c.String("date")),
				OnStep:       func(s schema.BisectStep) { fmt.Fprintln(stderr, "decodebench bisect:", recorder.BisectStepLine(s)) },
				BuildTimeout: c.Duration("build-timeout"),
			}
			var res *bisect.Outcome
			if plan != nil {
				if c.IsSet("max-time") {
					opt.MaxTime = c.Duration("max-time")
				}
				res, err = plan.Run(k.ctx, opt)
			} else {
				res, err = bisect.Run(k.ctx, bisect.Config{Source: c.String("source"), Good: c.String("good"), Bad: c.String("bad"), Build: c.String("build"),
					Threshold: threshold, MaxTime: c.Duration("max-time"), Scenario: c.Args().First()}, opt)
			}
			return bisectDone(res, err, k)
		},
	}
}

// resumePlan prepares a resume, prints its plan, and asks for a yes
// unless the build command was given again (--build, the same) or --yes:
// the state names commands to run, and may come from someone else.
func resumePlan(c *cli.Context, dir string) (*bisect.ResumePlan, error) {
	// What the state makes it say before the scenario loads shows none of
	// this shell's secrets.
	learnSecrets(harness.InheritedRedactor())
	p, err := bisect.PrepareResume(c.Context, dir, c.String("build"))
	if err != nil {
		return nil, &exitError{code: 1, msg: "bisect --resume: " + err.Error() + "; nothing was built or run"}
	}
	learnSecrets(p.Redactor())
	p.WritePlan(c.App.Writer)
	// The same --build stands for a yes only in a state this user's
	// decodebench wrote: it names the build, not the repository, the
	// scenario or their engine commands, which a received state may
	// change.
	if p.Finished() || (p.SameBuild && p.Owned) || c.Bool("yes") {
		return p, nil
	}
	ok, err := reproduce.Confirm(c.App.Reader, c.App.Writer)
	switch {
	case err != nil:
		return nil, &exitError{code: 1, msg: "bisect --resume: " + err.Error()}
	case !ok && p.SameBuild:
		return nil, &exitError{code: 1, msg: "bisect --resume: not confirmed; nothing was built or run " +
			"(the same --build stands for a yes only for a bisect this user started on this machine, its bisect.json unchanged since, " +
			"as noted in this user's cache folder: this one is not, or the note could not be written there; --yes resumes it without the question)"}
	case !ok:
		return nil, &exitError{code: 1, msg: "bisect --resume: not confirmed; nothing was built or run (give the build command again with --build, or --yes, to resume without the question)"}
	}
	return p, nil
}

// bisectDone prints a bisect's outcome and returns its exit: 0 first bad
// commit found, 2 the search ended without one, 130/143 interrupted (k,
// when a campaign ran, knows which signal), 1 an error.
func bisectDone(res *bisect.Outcome, err error, k ...*campaign) error {
	if err != nil {
		return &exitError{code: 1, msg: err.Error()}
	}
	fmt.Fprintf(stdout, "%s: %s\n\n%s\n\n%s", res.Summary.Outcome.Result, res.Path, recorder.BisectOutcomeText(res.Summary), recorder.BisectTable(res.Summary))
	switch {
	case res.Interrupted:
		fmt.Fprintf(stderr, "decodebench bisect: interrupted; continue with: decodebench bisect --resume %s\n", res.DataDir)
		code := 130
		if len(k) > 0 {
			code = k[0].interruptedCode(code)
		}
		return exitWith(code)
	case res.Summary.Outcome.Result != schema.FoundFirstBad:
		return exitWith(2)
	}
	return nil
}
