package main

import (
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/decodebench/decodebench/review"
)

func indexCommand() *cli.Command {
	return &cli.Command{
		Name:      "index",
		Usage:     "write DIR/README.md: every record at a glance, with trend plots",
		ArgsUsage: "DIR",
		Flags:     cacheFlags,
		Description: `index writes DIR/README.md: every record of DIR grouped by feature, then hardware, newest
first, with date, verdict, headline ratio and interval, engine version, a link, and the
problems check finds; and one trend plot per feature under DIR/index/ (ratio against
date, one line per hardware slug). Rerunning it on unchanged records changes no byte.`,
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageError("index: name one folder of records")
			}
			cache := checkCache(c)
			written, err := review.IndexProgress(c.Args().First(), cache, newRecordsProgress(c.App.ErrWriter, "index", time.Now))
			cache.MaybePrune(time.Now())
			if err != nil {
				return &exitError{code: 1, msg: "index: " + err.Error()}
			}
			for _, w := range written {
				fmt.Fprintln(c.App.Writer, "wrote", w)
			}
			if len(written) == 0 {
				fmt.Fprintln(c.App.Writer, "unchanged")
			}
			return nil
		},
	}
}
