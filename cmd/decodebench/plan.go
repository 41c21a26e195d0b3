package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/decodebench/decodebench/console"
	"github.com/decodebench/decodebench/harness"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/machine"
	"github.com/decodebench/decodebench/planner"
	"github.com/decodebench/decodebench/review"
	"github.com/decodebench/decodebench/scenarios"
)

func planCommand() *cli.Command {
	return &cli.Command{
		Name:      "plan",
		Usage:     "what a scenario's schedule detects on this machine, and the schedule that detects an asked change, from this hardware's records",
		ArgsUsage: "SCENARIO",
		Description: `SCENARIO is a file path or the name of a shipped scenario. plan reads this hardware's
records of the scenario in --records (the folder run writes records to; for hardware "auto"
this machine's, as decodebench machine names it): the newest (at most ` + fmt.Sprint(planner.MaxRecords) + `) of the same scenario,
else of its feature, re-analysed under the current rule. Their rounds give the noise of a run
within its round and the stalls, their noise anatomy what of it a start and a request
contribute, their costs what a round takes. It says the minimum detectable effect the
scenario's schedule reaches here (a test arm's, at 80% power and alpha over the test arms,
a control's veto made up for where there is one, over the looks' alpha spending; within --budget, else
schedule.rounds.max_time when set) and the measured requests a start that narrow it most for their time.
--mde asks for a change (3% or 0.03): the rounds (the scenario's min and every with a later max,
or a fixed number) and measured requests a start (1 to 16, where the noise is split) that
detect it soonest, and their time; or, when that does not fit --budget (default: the scenario's
max_time, else up to ` + fmt.Sprint(planner.MaxRounds) + ` rounds), the best the budget allows and what would reach it:
longer windows (max_tokens ×2, ×4, ×8 as far as llama-server's -c over -np holds them beside the prompt,
a request's own noise taken to fall with its tokens) or
a quieter host (the noise of a start's draw it would need). Without a record of this hardware
it goes by other hardware's, and says so; without any, by a stated guess. --set PATH=VALUE
(repeatable) plans the scenario as run --set would change it. --json prints the plan as JSON.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "mde", Usage: "the change to detect, `FRACTION` (3% or 0.03)"},
			&cli.DurationFlag{Name: "budget", Usage: "the campaign's time, `DURATION`: the scenario's schedule and --mde's are planned within it (default: the scenario's max_time)"},
			&cli.StringFlag{Name: "records", Value: defaultOut, Usage: "folder of records the host model is read from (`DIR`, as run --out)"},
			&cli.GenericFlag{Name: "set", Value: &repeatable{}, Usage: "override one value of the scenario, `PATH=VALUE`, as run --set; repeatable"},
			&cli.BoolFlag{Name: "json", Usage: "the plan as JSON"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageError("plan: name exactly one scenario (flags may come before or after it)")
			}
			var o planner.Options
			if v := c.String("mde"); v != "" {
				f, err := scenarios.ParseFraction(v)
				if err != nil || !(f > 0 && f < 1) {
					return usageError("plan --mde: %q is not a change between 0 and 100%% (3%% or 0.03)", v)
				}
				if f < 1e-4 {
					return usageError("plan --mde: %q is below 0.01%%, a change no campaign resolves", v)
				}
				o.MDE = f
			}
			switch o.Budget = c.Duration("budget"); {
			case c.IsSet("budget") && o.Budget <= 0:
				return usageError("plan --budget: %s is not a positive duration (20m, 1h30m)", o.Budget)
			case o.Budget > scenarios.MaxCampaign:
				return usageError("plan --budget: %s is longer than the limit of %s on a campaign", o.Budget, scenarios.MaxCampaign)
			case c.IsSet("budget") && o.Budget < time.Minute:
				return usageError("plan --budget: %s cannot hold a campaign: give at least 1m, as schedule.rounds.max_time", o.Budget)
			}
			if err := recordsFolderNamed(c, "plan"); err != nil {
				return err
			}
			s, warns, err := scenarios.Load(c.Args().First(), scenarios.Options{Set: *c.Generic("set").(*repeatable)})
			if s != nil {
				learnSecrets(harness.NewRedactor(s))
			}
			for _, w := range warns {
				fmt.Fprintln(c.App.ErrWriter, w)
			}
			if err != nil {
				return &exitError{code: 1, msg: err.Error()}
			}
			if o.Budget > 0 && o.MDE == 0 && !s.Schedule.Rounds.Sequential() {
				return usageError("plan --budget: %s's schedule has no looks, and only looks stop a campaign on a budget: give --mde to find a schedule within it", s.Path)
			}
			recs := newPlanRecords(c.Context, c.String("records"))
			p := planner.New(s, recs.Host(s), o)
			if c.Bool("json") {
				return json.NewEncoder(c.App.Writer).Encode(p)
			}
			return console.Plan(c.App.Writer, s, p, recs.Dir)
		},
	}
}

// recordsFolderNamed refuses a --records folder the user named that is
// not a folder: a mistyped path would otherwise read as a folder without
// records and answer from the guess. The default may be missing (a
// checkout without records): the guess is then the answer, and says so.
func recordsFolderNamed(c *cli.Context, command string) error {
	if !c.IsSet("records") {
		return nil
	}
	dir := c.String("records")
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return &exitError{code: 1, msg: fmt.Sprintf("%s --records: %s is not a folder of records", command, termsafe.String(dir))}
	}
	return nil
}

// newPlanRecords finds scenarios' host models in the records of dir, read
// as every command reads records, this machine identified once, when a
// scenario of hardware "auto" first needs it.
func newPlanRecords(ctx context.Context, dir string) planner.Records {
	return planner.Records{Dir: dir, List: review.LoadHistory, Load: checkedLoad(), Once: onceEach, Here: sync.OnceValue(func() string {
		id, _ := machine.Identify(ctx)
		return id.Slug
	})}
}
