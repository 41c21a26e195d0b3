package main

import (
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/decodebench/decodebench/export"
	"github.com/decodebench/decodebench/review"
)

func exportCommand() *cli.Command {
	return &cli.Command{
		Name:      "export",
		Usage:     "write a record's raw samples in another format",
		ArgsUsage: "RECORD.md | --history DIR --format csv|sqlite",
		Description: `--format benchstat writes one Go benchmark line per measured run, with the arm as a
sub-benchmark name and one value per metric, so the samples can be fed to benchstat:

    decodebench export --format benchstat docs/benchmark_results/X.md > x.txt
    benchstat -col /arm x.txt

Only the record's data block and runs are read; nothing in it is executed. A record that
fails check is refused (with check's cache: --cache-dir, --no-cache).` + historyHelp,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "format", Value: "benchstat", Usage: "output format (benchstat; csv or sqlite with --history)"},
			historyFlags[0], historyFlags[1],
		}, cacheFlags...),
		Action: func(c *cli.Context) error {
			if dir := c.String("history"); dir != "" {
				return exportHistory(c, dir)
			}
			if c.NArg() != 1 {
				return usageError("export: name one record")
			}
			if f := c.String("format"); f != "benchstat" {
				return usageError("export: unknown format %q (known: benchstat)", f)
			}
			cache := checkCache(c)
			rec, err := review.LoadCheckedFigures(c.Args().First(), cache)
			cache.MaybePrune(time.Now())
			if err != nil {
				return &exitError{code: 1, msg: "export: " + err.Error()}
			}
			return export.Benchstat(c.App.Writer, rec, strings.TrimSuffix(filepath.Base(c.Args().First()), ".md"))
		},
	}
}
