package main

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/decodebench/decodebench/changepoint"
	"github.com/decodebench/decodebench/history"
	"github.com/decodebench/decodebench/internal/pct"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/review"
	"github.com/decodebench/decodebench/schema"
)

func historyCommand() *cli.Command {
	return &cli.Command{
		Name:        "history",
		Usage:       "a feature's records over time and the steps in them",
		ArgsUsage:   "FEATURE",
		Description: historyDescription(),
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "dir", Value: defaultOut, Usage: "the records folder"},
			&cli.StringFlag{Name: "hw", Usage: "only this hardware slug"},
			&cli.BoolFlag{Name: "json", Usage: "write JSON"},
		}, cacheFlags...),
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageError("history: name one feature")
			}
			if err := recordNameFlags(c, "history"); err != nil {
				return err
			}
			feature := c.Args().First()
			recs, bad, err := review.LoadHistory(c.String("dir"))
			if err != nil {
				return &exitError{code: 1, msg: "history: " + err.Error()}
			}
			sayUnreadable(c, "history", bad, feature, recs)
			var mine []history.Record
			for _, r := range recs {
				if r.Rec.Feature == feature && (c.String("hw") == "" || r.Rec.Hardware == c.String("hw")) {
					mine = append(mine, r)
				}
			}
			if len(mine) == 0 {
				return &exitError{code: 1, msg: fmt.Sprintf("history: no records of %s in %s", termsafe.String(feature), termsafe.String(c.String("dir")))}
			}
			mine = checkedHistory(c, "history", c.String("dir"), mine)
			series, left := history.Build(mine, changepoint.Defaults), history.Left(mine)
			if c.Bool("json") {
				return review.WriteHistoryJSON(c.App.Writer, series, left)
			}
			writeHistoryText(c.App.Writer, feature, len(mine), series, left)
			return nil
		},
	}
}

// historyDescription is the history command's help. The thresholds are
// changepoint.Defaults', which the index and history use.
func historyDescription() string {
	d := changepoint.Defaults
	return `history reads every record of FEATURE in the records folder (--dir), groups them by
hardware and scenario (its hash), oldest first, and finds the steps in the baseline's own
median of the primary metric and in each arm's ratio to the baseline, as the index does:
` + changepoint.Method + fmt.Sprintf(", two-sided p < %g, a change of at least %g%%, at least %d\n", d.Alpha, 100*d.MinStep, d.MinSegment) +
		`records on either side. Each step names the records on either side with their engine
versions and source commits; a regression whose two records name different source
commits prints the decodebench bisect command that settles it (BUILD: the engine's build
command; SCENARIO: a scenario whose candidate arm runs ${CANDIDATE_DIR}'s build).
Each record is checked first (with check's cache) and one that fails is left out, named on
stderr: a step between records whose numbers someone wrote is not a step in what was
measured. So is every record but one of a campaign held by several records (the same
method.started, a run's start or runs.jsonl: a copy under another name or date): one
campaign counts once. Nothing is executed.`
}

func writeHistoryText(w io.Writer, feature string, n int, series []history.Series, left []history.LeftOut) {
	say := func(format string, args ...any) { fmt.Fprintln(w, termsafe.String(fmt.Sprintf(format, args...))) }
	d := changepoint.Defaults
	say("%s: %d record(s), %d with numbers, %d left out; steps by %s, p < %g, at least %g%%, at least %d records a side",
		feature, n, n-len(left), len(left), changepoint.Method, d.Alpha, 100*d.MinStep, d.MinSegment)
	for _, l := range left {
		say("left out: %s (%s, %s, scenario %.12s): %s, %s", l.Stem, l.Date, l.Hardware, l.ScenarioHash, l.Verdict, leftOutWhy(l.Verdict))
	}
	for _, s := range series {
		first, last := "", ""
		if len(s.Metrics) > 0 && len(s.Metrics[0].Points) > 0 {
			pts := s.Metrics[0].Points
			first, last = pts[0].Date, pts[len(pts)-1].Date
		}
		say("")
		say("%s, scenario %.12s: %d record(s) with numbers, %s … %s", s.Hardware, s.ScenarioHash, len(s.Records), first, last)
		for _, m := range s.Metrics {
			if len(m.Steps) == 0 {
				say("  %s: no step: %s", review.MetricLabel(m), noStepText(m.NoStep))
			} else {
				say("  %s: %d step(s)", review.MetricLabel(m), len(m.Steps))
			}
			for _, st := range m.Steps {
				say("    %s: %s, p=%.2g, mean %.4g → %.4g", st.First.Date, review.StepText(st.Step, st.Worse), st.P, st.Before, st.After)
				say("      last before: %s (%s)", st.Last.Stem, engineText(st.Last))
				say("      first after: %s (%s)", st.First.Stem, engineText(st.First))
				say("      changed: %s", review.ChangesText(st.Changes))
				if cmd := review.BisectCommand(st); cmd != "" {
					say("      bisect: %s", cmd)
				}
			}
			writePoints(say, m)
		}
	}
}

// writePoints writes a metric's value in each record, oldest first: date,
// record, value with its interval, verdict.
func writePoints(say func(string, ...any), m history.Metric) {
	width := 0
	for _, p := range m.Points {
		width = max(width, len(p.Stem))
	}
	say("    records, oldest first:")
	for _, p := range m.Points {
		say("      %s  %-*s  %s  %s", p.Date, width, p.Stem, pointValue(m, p), p.Verdict)
	}
}

// pointValue is "0.961× [0.908, 1.017]" for a ratio, "41.23 tok/s
// [40.1, 42.01]" for the baseline's own metric.
func pointValue(m history.Metric, p history.Point) string {
	v, lo, hi := fmt.Sprintf("%.4g", p.Value), fmt.Sprintf("%.4g", p.Lo), fmt.Sprintf("%.4g", p.Hi)
	if m.Kind == history.KindRatio {
		v, lo, hi = fmt.Sprintf("%.3f×", p.Value), fmt.Sprintf("%.3f", p.Lo), fmt.Sprintf("%.3f", p.Hi)
	} else if m.Unit != "" {
		v += " " + m.Unit
	}
	if p.Lo != 0 || p.Hi != 0 {
		v += " [" + lo + ", " + hi + "]"
	}
	return v
}

// noStepText says why a metric shows no step.
func noStepText(ns *history.NoStep) string {
	d := changepoint.Defaults
	switch {
	case ns == nil:
		return "none found"
	case ns.Strongest == nil:
		return fmt.Sprintf("%d record(s); a step needs at least %d a side, %d in all", ns.Points, d.MinSegment, ns.Need)
	}
	st := ns.Strongest
	var failed []string
	if st.P >= d.Alpha {
		failed = append(failed, fmt.Sprintf("p=%.2g is not below %g", st.P, d.Alpha))
	}
	if math.Abs(st.Change) < d.MinStep {
		failed = append(failed, fmt.Sprintf("%s is under %g%%", pct.Signed(st.Change, 1), 100*d.MinStep))
	}
	return fmt.Sprintf("%d record(s); the strongest split, before %s, is %s at p=%.2g: %s",
		ns.Points, st.First.Stem, review.StepText(st.Step, st.Worse), st.P, strings.Join(failed, " and "))
}

// leftOutWhy says why a record's numbers enter no series.
func leftOutWhy(v schema.Verdict) string {
	if v == schema.Incomplete {
		return "its numbers are partial (the campaign did not finish)"
	}
	return "it has no numbers to compare"
}

func engineText(p history.Point) string {
	s := p.EngineVersion
	if s == "" {
		s = "engine version unknown"
	}
	if p.SourceCommit != "" {
		s += ", commit " + p.SourceCommit
	} else {
		s += ", no source commit"
	}
	return s
}

// checkedHistory is recs less the records that fail check, and less
// every record but one of each campaign (review.OnceEach), each named on
// stderr as left out: a step between records whose numbers someone wrote,
// or between copies of one campaign under other dates, is not a step in
// what was measured (regime and index leave them out too).
// sayUnreadable names on stderr the files of a records folder named as
// feature's records (history.UnreadableOf) that could not be read, and so
// are left out as much as those that fail check.
func sayUnreadable(c *cli.Context, command string, bad []error, feature string, recs []history.Record) {
	for _, u := range history.UnreadableOf(bad, feature, recs) {
		fmt.Fprintf(c.App.ErrWriter, "%s: %s left out: cannot be read: %s\n", command, termsafe.String(u.Path), termsafe.String(u.Why()))
	}
}

func checkedHistory(c *cli.Context, command, dir string, recs []history.Record) []history.Record {
	paths := make([]string, len(recs))
	for i, r := range recs {
		paths[i] = filepath.Join(dir, r.Stem+".md")
	}
	cache := checkCache(c)
	checked := review.CheckAllProgress(paths, cache, newRecordsProgress(c.App.ErrWriter, command, time.Now))
	cache.MaybePrune(time.Now())
	var good []history.Record
	for i, r := range checked {
		if len(r.Problems) > 0 {
			fmt.Fprintf(c.App.ErrWriter, "%s: %s left out: %s\n", command, termsafe.String(r.Path), termsafe.String(r.Problems[0].String()))
			continue
		}
		good = append(good, recs[i])
	}
	good, dups := review.OnceEach(dir, good)
	for _, d := range dups {
		fmt.Fprintf(c.App.ErrWriter, "%s: %s left out: the same campaign as %s (its start, a run's start or runs.jsonl in common): counted once\n",
			command, termsafe.String(filepath.Join(dir, d.Stem+".md")), termsafe.String(d.Of))
	}
	return good
}
