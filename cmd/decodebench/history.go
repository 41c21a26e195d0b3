package main

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/decodebench/decodebench/changepoint"
	"github.com/decodebench/decodebench/history"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/review"
)

func historyCommand() *cli.Command {
	return &cli.Command{
		Name:        "history",
		Usage:       "a feature's records over time and the steps in them",
		ArgsUsage:   "FEATURE",
		Description: historyDescription(),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "dir", Value: defaultOut, Usage: "the records folder"},
			&cli.StringFlag{Name: "hw", Usage: "only this hardware slug"},
			&cli.BoolFlag{Name: "json", Usage: "write JSON"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageError("history: name one feature")
			}
			feature := c.Args().First()
			recs, _, err := review.LoadHistory(c.String("dir"))
			if err != nil {
				return &exitError{code: 1, msg: "history: " + err.Error()}
			}
			var mine []history.Record
			for _, r := range recs {
				if r.Rec.Feature == feature && (c.String("hw") == "" || r.Rec.Hardware == c.String("hw")) {
					mine = append(mine, r)
				}
			}
			if len(mine) == 0 {
				return &exitError{code: 1, msg: fmt.Sprintf("history: no records of %s in %s", termsafe.String(feature), termsafe.String(c.String("dir")))}
			}
			series := history.Build(mine, changepoint.Defaults)
			if c.Bool("json") {
				return review.WriteHistoryJSON(c.App.Writer, series)
			}
			writeHistoryText(c.App.Writer, feature, len(mine), series)
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
Only data blocks are read; nothing is executed and nothing is checked (check does that).`
}

func writeHistoryText(w io.Writer, feature string, n int, series []history.Series) {
	say := func(format string, args ...any) { fmt.Fprintln(w, termsafe.String(fmt.Sprintf(format, args...))) }
	say("%s: %d record(s); steps by %s, p < %g, at least %g%%, at least %d records a side",
		feature, n, changepoint.Method, changepoint.Defaults.Alpha, 100*changepoint.Defaults.MinStep, changepoint.Defaults.MinSegment)
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
				say("  %s: no steps", review.MetricLabel(m))
				continue
			}
			say("  %s: %d step(s)", review.MetricLabel(m), len(m.Steps))
			for _, st := range m.Steps {
				say("    %s: %s, p=%.2g, mean %.4g → %.4g", st.First.Date, review.StepText(st.Step, st.Worse), st.P, st.Before, st.After)
				say("      last before: %s (%s)", st.Last.Stem, engineText(st.Last))
				say("      first after: %s (%s)", st.First.Stem, engineText(st.First))
				say("      changed: %s", review.ChangesText(st.Changes))
				if cmd := review.BisectCommand(st); cmd != "" {
					say("      bisect: %s", cmd)
				}
			}
		}
	}
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
