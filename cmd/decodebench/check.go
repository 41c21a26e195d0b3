package main

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/review"
)

func checkCommand() *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "lint records: every problem, with the section it is in",
		ArgsUsage: "RECORD.md...",
		Description: `check reads each record's data block, its data folder and its stored scenario, and
reports every problem: missing or empty sections, files whose sha256 differs from the one
the record names, outputs that do not match their hash, a data block that a fresh analysis
of runs.jsonl does not reproduce (verdict included), and Markdown that does not follow from
the data block and the runs (a number edited by hand anywhere is caught).
Nothing in a record or its data folder is executed.

Exit 0 when every record passes, 1 when one has a problem.`,
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usageError("check: name at least one record")
			}
			bad := 0
			start := time.Now()
			for _, path := range c.Args().Slice() {
				shown := termsafe.String(path) // a file name is shown, never acted on
				if filepath.Base(path) == review.IndexFile {
					fmt.Fprintf(c.App.Writer, "skip %s (the index that decodebench index writes, not a record)\n", shown)
					continue
				}
				probs := review.Check(path)
				if len(probs) == 0 {
					fmt.Fprintf(c.App.Writer, "ok   %s\n", shown)
					continue
				}
				bad++
				fmt.Fprintf(c.App.Writer, "FAIL %s: %d problem(s)\n", shown, len(probs))
				for _, p := range probs {
					fmt.Fprintf(c.App.Writer, "  %s\n", p)
				}
			}
			fmt.Fprintf(c.App.ErrWriter, "checked %d record(s) in %s\n", c.NArg(), time.Since(start).Round(time.Millisecond))
			if bad > 0 {
				return &exitError{code: 1, msg: fmt.Sprintf("%d of %d record(s) have problems", bad, c.NArg())}
			}
			return nil
		},
	}
}
