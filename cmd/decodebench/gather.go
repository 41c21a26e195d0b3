package main

import (
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/decodebench/decodebench/history"
	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/review"
)

func gatherCommand() *cli.Command {
	return &cli.Command{
		Name:      "gather",
		Usage:     "place records made on other machines (downloaded artifacts) into the records folder",
		ArgsUsage: "SRC...",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "dir", Value: defaultOut, Usage: "the records folder to place them in"},
			&cli.GenericFlag{Name: "github-summary", Value: newSummaryFlag(), Usage: "append what was gathered and the regime tables of its features to `[FILE]`, $GITHUB_STEP_SUMMARY when none is given (default on when it is set)"},
		}, cacheFlags...),
		Description: `gather places records into the records folder (--dir): each SRC is a record file, or a
folder whose *.md files are records, each with its data folder beside it (data/<name>/),
as a campaign job's artifact holds them. Each record must pass check where it lies and be
named as run names it; a record or data folder of the same name already in the folder
must hold the same bytes (the record is then "already there"), else the record is refused.
Only the files the record names with their sha256 are copied, each hashed again as it
is copied: the data folder first, under a temporary name, then the record, which is
checked again where it lands and removed if it fails. Nothing in a record is executed.
It says what it placed, what was already there and what it refused, and why.

Exit 0 when every record was placed or already there, 1 when one was refused.`,
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usageError("gather: name at least one record or folder of records")
			}
			dir := c.String("dir")
			cache := checkCache(c)
			gs, err := review.Gather(dir, c.Args().Slice(), cache)
			cache.MaybePrune(time.Now())
			if err != nil {
				return &exitError{code: 1, msg: "gather: " + termsafe.String(err.Error())}
			}
			refused := 0
			for _, g := range gs {
				switch g.Action {
				case review.GatherRefused:
					refused++
					fmt.Fprintf(c.App.Writer, "refused %s\n", termsafe.String(g.Source))
					for _, w := range g.Why {
						fmt.Fprintf(c.App.Writer, "  %s\n", termsafe.String(w))
					}
				default:
					fmt.Fprintf(c.App.Writer, "%s %s (%s, from %s)\n", g.Action, termsafe.String(g.Dest), g.Rec.Verdict, termsafe.String(g.Source))
				}
			}
			if sf := c.Generic("github-summary").(*summaryFlag); sf.on {
				if err := appendGatherSummary(c, sf.file(), dir, gs); err != nil {
					fmt.Fprintln(c.App.ErrWriter, "decodebench: github summary:", termsafe.String(err.Error()))
				}
			}
			if refused > 0 {
				return &exitError{code: 1, msg: fmt.Sprintf("gather: %d of %d record(s) refused", refused, len(gs))}
			}
			return nil
		},
	}
}

// appendGatherSummary appends to the job summary what gather did and, per
// feature it gathered, the regime tables of the scenarios it gathered, from
// every record of the folder that passes check.
func appendGatherSummary(c *cli.Context, path, dir string, gs []review.Gathered) error {
	if path == "" {
		return fmt.Errorf("GITHUB_STEP_SUMMARY is not set")
	}
	f, err := safefs.OpenAppend(path, 0o644)
	if err != nil {
		return err
	}
	werr := writeGatherSummary(c, f, dir, gs)
	if err := f.Close(); werr == nil {
		werr = err
	}
	return werr
}

func writeGatherSummary(c *cli.Context, w io.Writer, dir string, gs []review.Gathered) error {
	if _, err := fmt.Fprintf(w, "## decodebench gather into %s\n\n%s\n", recorder.MarkdownCode(dir), review.GatherMarkdown(gs)); err != nil {
		return err
	}
	var features []string
	hashes := map[string]bool{}
	for _, g := range gs {
		if g.Action == review.GatherRefused {
			continue
		}
		if !slices.Contains(features, g.Rec.Feature) {
			features = append(features, g.Rec.Feature)
		}
		hashes[g.Rec.Scenario.Hash] = true
	}
	for _, feature := range features {
		tables, err := regimeTables(c, dir, feature)
		if err != nil {
			return err
		}
		tables = slices.DeleteFunc(tables, func(t history.RegimeTable) bool { return !hashes[t.ScenarioHash] })
		if _, err := io.WriteString(w, regimeHeading(feature)+review.RegimeMarkdown(tables, nil)); err != nil {
			return err
		}
	}
	return nil
}
