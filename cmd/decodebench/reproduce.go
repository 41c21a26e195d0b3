package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/decodebench/decodebench/harness"
	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/reproduce"
	"github.com/decodebench/decodebench/scenarios"
)

func reproduceCommand() *cli.Command {
	return &cli.Command{
		Name:      "reproduce",
		Usage:     "rerun a record's campaign on this machine and diff the result against it",
		ArgsUsage: "RECORD.md",
		Description: `reproduce reads the scenario stored in the record's data folder, resolves it on this
machine (--var NAME=VALUE first, then the environment, then the scenario's own vars; the
prompt is the record's), prints every engine command line and environment it is about to
run, every file it will read (a file outside the record's data folder, such as a
prompt_file the record does not carry, is refused unless --allow-local-files), with every
control character shown escaped, and asks for confirmation: a record from a pull request can
name any command. --yes
skips the question (for CI, on records you trust). It then takes the host lock (waiting
up to --wait-lock for another campaign), runs the campaign into a new record under --out
and prints the diff against the original, conditions first. --record-path FILE writes
the new record's path to FILE, for a CI step that gates on it next (diff --confirm).

Exit: the new record's verdict code (0 VALID, 2 INCONCLUSIVE, …), 1 when refused or failed,
130 (SIGINT), 143 (SIGTERM) or 129 (SIGHUP) when interrupted.`,
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "var", Usage: "NAME=VALUE for a variable of the scenario (this machine's binaries and models); repeatable"},
			&cli.BoolFlag{Name: "yes", Usage: "run without asking"},
			&cli.StringFlag{Name: "out", Value: "reproductions", Usage: "folder for the new record"},
			&cli.StringFlag{Name: "hw", Usage: "hardware slug for the new record (default: detected)"},
			&cli.BoolFlag{Name: "markdown", Usage: "print the diff as Markdown"},
			&cli.StringFlag{Name: "record-path", Usage: "write the new record's path to `FILE` (a script's next step, e.g. diff --confirm, reads it)"},
			&cli.BoolFlag{Name: "allow-local-files", Usage: "let the stored scenario read files from this machine outside the record's data folder (a prompt_file); the plan names them"},
			waitLockFlag,
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageError("reproduce: name one record")
			}
			if err := recordNameFlags(c, "reproduce"); err != nil {
				return err
			}
			lookup, fromEnv, err := varLookup(c.StringSlice("var"))
			if err != nil {
				return err
			}
			p, err := reproduce.Prepare(c.Args().First(), lookup)
			var unresolved *reproduce.UnresolvedError
			var refused *reproduce.RuleError
			switch {
			case errors.As(err, &refused) && len(refused.Other) > 0:
				return &exitError{code: 1, msg: "reproduce: " + err.Error() + "\n(where a variable does not resolve, point it at this machine with --var NAME=VALUE)\nnothing was run"}
			case errors.As(err, &refused):
				return &exitError{code: 1, msg: "reproduce: " + err.Error() + "\nnothing was run"}
			case errors.As(err, &unresolved):
				return &exitError{code: 1, msg: "reproduce: " + err.Error() + "\n(point its variables at this machine with --var NAME=VALUE)"}
			case err != nil:
				return &exitError{code: 1, msg: err.Error()}
			}
			if unknown := unusedVars(c.StringSlice("var"), p.Scenario); len(unknown) > 0 {
				// A warning, not a refusal: one set of --var may serve
				// several records (confirm-regression.sh passes the
				// user's), each using some of them.
				stored, _ := recorder.DataPath(p.Path, p.Record, recorder.ScenarioFile)
				fmt.Fprintf(c.App.ErrWriter, "warning: --var %s: the record's scenario uses no such variable (%s), so it changes nothing: "+
					"the command lines below are as the scenario states them (to run others, copy its stored scenario, %s, and run the copy)\n",
					strings.Join(unknown, ", "), usedVarNames(p.Scenario), termsafe.String(stored))
			}
			if m := maskedLaunches(p.Scenario); len(m) > 0 {
				return &exitError{code: 1, msg: maskedError("reproduce", m).Error() + "; nothing was run"}
			}
			learnSecrets(harness.NewRedactor(p.Scenario))
			p.FromEnvironment = fromEnv(p.Scenario)
			for _, w := range p.Warnings {
				fmt.Fprintln(c.App.ErrWriter, w)
			}
			if f := c.String("record-path"); f != "" {
				// Its folder is to be there before the campaign, not
				// found missing after hours of it.
				d, err := safefs.OpenDir(filepath.Dir(f))
				if err != nil {
					return &exitError{code: 1, msg: "reproduce: --record-path: " + err.Error() + "; nothing was run"}
				}
				d.Close()
			}
			p.WritePlan(c.App.Writer)
			if err := allowed(c, p); err != nil {
				return err
			}
			if err := p.ReadLocalFiles(); err != nil {
				return &exitError{code: 1, msg: err.Error()}
			}
			k, err := startCampaign(c, "reproduce", p.Scenario.Path)
			if err != nil {
				return err
			}
			defer k.end()
			res, err := p.Run(k.ctx, withHostHistory(k.options(c.App.ErrWriter, c.String("out"), c.String("hw"), ""), c.App.ErrWriter))
			if err != nil {
				return &exitError{code: 1, msg: err.Error()}
			}
			fmt.Fprintf(c.App.Writer, "%s: %s\n", res.Outcome.Record.Verdict, res.Outcome.RecordPath)
			printHistoryWarnings(c.App.Writer, res.Outcome.Record)
			fmt.Fprintln(c.App.Writer)
			if f := c.String("record-path"); f != "" {
				if err := safefs.WriteFile(f, []byte(res.Outcome.RecordPath+"\n"), 0o644); err != nil {
					return &exitError{code: 1, msg: "reproduce: --record-path: " + err.Error()}
				}
			}
			if err := writeDiff(c.App.Writer, res.Diff, c.Bool("markdown"), false); err != nil {
				return err
			}
			return exitWith(k.verdictCode(res.Outcome.Record.Verdict))
		},
	}
}

// varLookup resolves a scenario's ${NAME}: the --var values first, then
// the environment. fromEnv names the variables a scenario resolved from
// this machine's environment rather than from --var: a received record's
// commands may send them anywhere, so the plan names them.
func varLookup(kvs []string) (lookup func(string) (string, bool), fromEnv func(*scenarios.Scenario) []string, err error) {
	vars := map[string]string{}
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, nil, usageError("reproduce: --var %q: want NAME=VALUE", kv)
		}
		vars[k] = v
	}
	lookup = func(name string) (string, bool) {
		if v, ok := vars[name]; ok {
			return v, true
		}
		return os.LookupEnv(name)
	}
	fromEnv = func(s *scenarios.Scenario) []string {
		var out []string
		for _, kv := range s.VarsUsed() {
			if _, given := vars[kv.Key]; kv.FromEnv && !given && !slices.Contains(out, kv.Key) {
				out = append(out, kv.Key)
			}
		}
		return out
	}
	return lookup, fromEnv, nil
}

// allowed refuses a plan that reads files from outside the record's data
// folder without --allow-local-files, then the plan of a record that fails
// check (its numbers, which the rerun is compared with, maybe no
// measurement's), and asks for confirmation without --yes.
func allowed(c *cli.Context, p *reproduce.Plan) error {
	if len(p.Local) > 0 && !c.Bool("allow-local-files") {
		f := p.Local[0]
		msg := fmt.Sprintf("reproduce: the stored scenario reads %s (%s) from this machine, outside the record's data folder; ", termsafe.String(f.Path), f.Key)
		return &exitError{code: 1, msg: msg + "nothing was run (--allow-local-files reads it)"}
	}
	if err := p.Refused(); err != nil {
		return &exitError{code: 1, msg: err.Error()}
	}
	if c.Bool("yes") {
		return nil
	}
	ok, err := reproduce.Confirm(c.App.Reader, c.App.Writer)
	switch {
	case err != nil:
		return &exitError{code: 1, msg: "reproduce: " + err.Error()}
	case !ok:
		return &exitError{code: 1, msg: "reproduce: not confirmed; nothing was run"}
	}
	return nil
}

// unusedVars are the names --var gives that the scenario uses nowhere: a
// compare record's paths are written as they are, and a --var that
// changes nothing was taken without a word; reproduce warns of them.
func unusedVars(kvs []string, s *scenarios.Scenario) []string {
	used := map[string]bool{}
	for _, kv := range s.VarsUsed() {
		used[kv.Key] = true
	}
	var out []string
	for _, kv := range kvs {
		if k, _, _ := strings.Cut(kv, "="); !used[k] && !slices.Contains(out, k) {
			out = append(out, termsafe.String(k))
		}
	}
	return out
}

// usedVarNames lists the scenario's variables for a message.
func usedVarNames(s *scenarios.Scenario) string {
	var names []string
	for _, kv := range s.VarsUsed() {
		if !slices.Contains(names, kv.Key) {
			names = append(names, termsafe.String(kv.Key))
		}
	}
	if len(names) == 0 {
		return "it uses none"
	}
	return "it uses " + strings.Join(names, ", ")
}
