package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/review"
	"github.com/decodebench/decodebench/schema"
)

func diffCommand() *cli.Command {
	return &cli.Command{
		Name:      "diff",
		Usage:     "compare two records: conditions first, then what moved",
		ArgsUsage: "OLD.md NEW.md",
		Description: `diff lists first every difference in the conditions of measurement (machine, engine
binary and version, model files, decodebench, the scenario's meaning key by key, gates,
load), then per arm and metric both medians and the change new/old − 1 with its interval
and p from the two records' raw samples: ~ when not significant or below --threshold.
Each arm's ratio to its own baseline is compared too: that ratio survives a change of
machine where raw tok/s does not. A REJECTED, FAILED, INCONCLUSIVE or INCOMPLETE side is
refused unless --force, and so is a side that fails check (run on each record). Nothing in
either record is executed.

Exit 0, or 1 with --fail-on-regression when an arm's ratio to its own baseline (measured
interleaved within each record) got significantly worse: that is what CI gates on. Every
arm's ratio can fail the gate, so their intervals are Bonferroni-corrected (each at
1 − alpha/arms) and the chance of a false regression anywhere stays at alpha. Raw
values between two campaigns are shown but never gate: minutes apart, with one binary,
the host alone moves them by more than a real change.

One campaign is one session: what the host did that session moves an arm's ratio too,
by more than its interval says. --confirm NEW2.md names a second campaign of NEW's
scenario (a rerun: decodebench reproduce NEW.md --record-path FILE writes its record's
path to FILE); an arm's regression in OLD → NEW then fails --fail-on-regression only
when the second session agrees: each record's log ratio with the standard error of its
bootstrap interval, each session's change (new − old) combined by inverse-variance
weighting (a fixed-effect meta-analysis; generalised least squares, as the sessions
share OLD) and significant at the same alpha over the arms, the second session alone a
significant regression (one-sided), and Cochran's Q between the sessions below p 0.10
vetoing (they disagree beyond chance) unless each session alone is such a regression.
--confirm-old OLD2.md gives the second session its own old record.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "threshold", Value: "2%", Usage: "smallest change that counts (2% or 0.02; 0 counts every significant change)"},
			&cli.BoolFlag{Name: "force", Usage: "compare records whose verdict says their numbers are not fit to use"},
			&cli.BoolFlag{Name: "markdown", Usage: "Markdown to paste into a pull request"},
			&cli.BoolFlag{Name: "json", Usage: "machine-readable output"},
			&cli.BoolFlag{Name: "fail-on-regression", Usage: "exit 1 when an arm's ratio to its own baseline got significantly worse (raw values between campaigns never gate)"},
			&cli.StringFlag{Name: "confirm", Usage: "a second campaign of NEW's scenario (`NEW2.md`, e.g. a rerun by reproduce): a regression fails --fail-on-regression only when the two sessions agree"},
			&cli.StringFlag{Name: "confirm-old", Usage: "the second session's own old record (`OLD2.md`; default: OLD, shared by both sessions)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 2 {
				return usageError("diff: name two records, OLD.md NEW.md")
			}
			th, err := parseFraction(c.String("threshold"))
			if err != nil {
				return usageError("diff: --threshold: %v", err)
			}
			oldPath, newPath := c.Args().Get(0), c.Args().Get(1)
			old, nu, err := review.LoadPair(oldPath, newPath)
			if err != nil {
				return &exitError{code: 1, msg: err.Error()}
			}
			d := review.Compare(oldPath, old, newPath, nu, review.DiffOptions{Threshold: th, Force: c.Bool("force"),
				Problems: [2][]review.Problem{review.Check(oldPath), review.Check(newPath)},
				Today:    [2]string{review.UnfitToday(oldPath, old), review.UnfitToday(newPath, nu)}})
			if c.String("confirm") == "" {
				if c.String("confirm-old") != "" {
					return usageError("diff: --confirm-old needs --confirm NEW2.md")
				}
				if err := writeDiff(c.App.Writer, d, c.Bool("markdown"), c.Bool("json")); err != nil {
					return err
				}
				if len(d.Refused) > 0 {
					return &exitError{code: 1}
				}
				if err := ungateable(c, d, old, nu); err != nil {
					return err
				}
				if c.Bool("fail-on-regression") && d.Regressed() {
					return &exitError{code: 1, msg: "diff: a significant regression of an arm's ratio to its own baseline"}
				}
				return nil
			}
			return confirmDiff(c, d, old, nu)
		},
	}
}

// ungateable is why --fail-on-regression cannot gate old against nu: the
// gate compares each arm's ratio to its baseline on the primary metric,
// and records of two features, records that take their ratios to another
// baseline or name another primary metric, and an arm of one record's
// scenario that the other lacks (renamed, added or dropped) have no such
// ratio in common: the gate passed them, gating on the arms left or on
// none. An arm of both without runs to compare (a record of no finished
// runs, as identity-empty's) is the records' verdicts' to refuse; one
// with too few runs for a test (one of a side) is refused: the gate read
// its untested ratio as no change.
func ungateable(c *cli.Context, d review.Diff, old, nu *schema.Record) error {
	if !c.Bool("fail-on-regression") {
		return nil
	}
	refuse := func(format string, args ...any) error {
		return &exitError{code: 1, msg: "diff: --fail-on-regression cannot gate: " + termsafe.String(fmt.Sprintf(format, args...))}
	}
	for _, d := range []struct{ what, a, b string }{
		{"are of different features", old.Feature, nu.Feature},
		{"take their ratios to different baselines", old.Scenario.Baseline, nu.Scenario.Baseline},
		{"name different primary metrics", old.Scenario.Primary, nu.Scenario.Primary},
	} {
		if d.a != d.b {
			return refuse("the records %s (%s, %s)", d.what, d.a, d.b)
		}
	}
	for _, arm := range oneSided(old, nu) {
		return refuse("arm %s is in one record only (renamed, added or dropped): a regression of it could not be seen", arm)
	}
	for _, why := range d.Untested() {
		return refuse("%s: a regression of it could not be seen", why)
	}
	return nil
}

// oneSided are the arms of one record's scenario that the other's lacks.
func oneSided(old, nu *schema.Record) []string {
	in := func(r *schema.Record, name string) bool {
		return slices.ContainsFunc(r.Scenario.Arms, func(a schema.ArmInfo) bool { return a.Name == name })
	}
	var out []string
	for _, p := range [][2]*schema.Record{{old, nu}, {nu, old}} {
		for _, a := range p[0].Scenario.Arms {
			if !in(p[1], a.Name) {
				out = append(out, a.Name)
			}
		}
	}
	return out
}

// confirmDiff is diff with --confirm: the first pair's diff, then the
// second session's confirmation, which alone decides
// --fail-on-regression.
func confirmDiff(c *cli.Context, d review.Diff, old, nu *schema.Record) error {
	second := review.SecondSession{NewPath: c.String("confirm")}
	var err error
	if second.New, err = recorder.LoadFigures(second.NewPath); err != nil {
		return &exitError{code: 1, msg: "diff: --confirm: " + err.Error()}
	}
	if p := c.String("confirm-old"); p != "" {
		second.OldPath = p
		if second.Old, err = recorder.LoadFigures(p); err != nil {
			return &exitError{code: 1, msg: "diff: --confirm-old: " + err.Error()}
		}
	}
	probs := [2][]review.Problem{review.Check(second.NewPath)}
	today := [2]string{review.UnfitToday(second.NewPath, second.New)}
	if second.OldPath != "" {
		probs[1] = review.Check(second.OldPath)
		today[1] = review.UnfitToday(second.OldPath, second.Old)
	}
	conf := review.Confirm(d, old, nu, second, review.ConfirmOptions{Force: c.Bool("force"), Problems: probs, Today: today})
	if err := writeConfirmed(c.App.Writer, d, conf, c.Bool("markdown"), c.Bool("json")); err != nil {
		return err
	}
	if len(d.Refused) > 0 || len(conf.Refused) > 0 {
		return &exitError{code: 1}
	}
	if err := ungateable(c, d, old, nu); err != nil {
		return err
	}
	if c.Bool("fail-on-regression") && conf.Raised() {
		return &exitError{code: 1, msg: "diff: a significant regression of an arm's ratio to its own baseline, confirmed by a second session"}
	}
	return nil
}

// writeConfirmed writes the diff and its confirmation: as one JSON object
// (the diff's fields and "confirm"), or one after the other.
func writeConfirmed(w io.Writer, d review.Diff, conf review.Confirmation, markdown, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			review.Diff
			Confirm review.Confirmation `json:"confirm"`
		}{d, conf})
	}
	if err := writeDiff(w, d, markdown, false); err != nil {
		return err
	}
	if len(d.Refused) > 0 {
		return nil
	}
	fmt.Fprintln(w)
	if markdown {
		return conf.WriteMarkdown(w)
	}
	return conf.WriteText(w)
}

func writeDiff(w io.Writer, d review.Diff, markdown, asJSON bool) error {
	switch {
	case asJSON:
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(d)
	case markdown:
		return d.WriteMarkdown(w)
	}
	return d.WriteText(w)
}

// parseFraction reads 2% or 0.02.
func parseFraction(s string) (float64, error) {
	t := strings.TrimSpace(s)
	scale := 1.0
	if v, ok := strings.CutSuffix(t, "%"); ok {
		t, scale = v, 0.01
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || f < 0 || f*scale >= 1 {
		return 0, fmt.Errorf("%q is not a fraction such as 2%% or 0.02", s)
	}
	return f * scale, nil
}
