package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/decodebench/decodebench/history"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/review"
)

func regimeCommand() *cli.Command {
	return &cli.Command{
		Name:      "regime",
		Usage:     "a feature's result per hardware: does it hold across regimes?",
		ArgsUsage: "FEATURE",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "dir", Value: defaultOut, Usage: "the records folder"},
			&cli.StringFlag{Name: "scenario", Usage: "only the scenario whose hash starts with `HASH`"},
			&cli.BoolFlag{Name: "json", Usage: "write JSON"},
		}, cacheFlags...),
		Description: `regime reads every record of FEATURE in the records folder (--dir) and writes, per
scenario (its hash), one row per hardware: its latest VALID record's ratio of each arm to
the baseline on the primary metric with its interval, the verdict (and a newer record that
is not VALID), the GPU and its generation where the record knows them, macOS's power mode
where read, the engine build, and each arm's share of the hardware's limit (roofline)
where the record measured it. Where an arm's intervals on two hardware exclude each other
and its ratios differ by min_effect or more, the table says the result is regime-dependent
and names the two. Every record is checked first (as check does, through its cache); one
with problems stands for no hardware and is named on stderr. Markdown by default, the
typed tables with --json. Nothing is executed.

Exit 0, or 1 when the folder holds no record of FEATURE.`,
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageError("regime: name one feature")
			}
			feature, dir := c.Args().First(), c.String("dir")
			tables, err := regimeTables(c, dir, feature)
			if err != nil {
				return err
			}
			if p := c.String("scenario"); p != "" {
				var kept []history.RegimeTable
				for _, t := range tables {
					if strings.HasPrefix(t.ScenarioHash, p) {
						kept = append(kept, t)
					}
				}
				if len(kept) == 0 {
					return &exitError{code: 1, msg: fmt.Sprintf("regime: no scenario of %s whose hash starts with %s", termsafe.String(feature), termsafe.String(p))}
				}
				tables = kept
			}
			if c.Bool("json") {
				enc := json.NewEncoder(c.App.Writer)
				enc.SetIndent("", "  ")
				return enc.Encode(tables)
			}
			fmt.Fprint(c.App.Writer, termsafe.Text(regimeHeading(feature)+review.RegimeMarkdown(tables, nil)))
			return nil
		},
	}
}

// regimeHeading is the Markdown heading of a feature's regime tables.
func regimeHeading(feature string) string {
	return "## Regimes of " + recorder.MarkdownCode(feature) + "\n\n"
}

// regimeTables are feature's regime tables from the records of dir that
// pass check; those that do not, or cannot be read, are named on stderr.
func regimeTables(c *cli.Context, dir, feature string) ([]history.RegimeTable, error) {
	recs, bad, err := review.LoadHistory(dir)
	if err != nil {
		return nil, &exitError{code: 1, msg: "regime: " + err.Error()}
	}
	sayUnreadable(c, "regime", bad, feature, recs)
	var mine []history.Record
	for _, r := range recs {
		if r.Rec.Feature == feature {
			mine = append(mine, r)
		}
	}
	if len(mine) == 0 {
		return nil, &exitError{code: 1, msg: fmt.Sprintf("regime: no records of %s in %s", termsafe.String(feature), termsafe.String(dir))}
	}
	good := checkedHistory(c, "regime", dir, mine)
	return history.Regimes(good, feature), nil
}
