package main

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/website"
)

func siteCommand() *cli.Command {
	return &cli.Command{
		Name:      "site",
		Usage:     "write a static web site of a records folder: every record, its plots, the history of each feature",
		ArgsUsage: "DIR",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "out", Value: "site", Usage: "the site's folder: new, empty, or a site written before"},
		}, cacheFlags...),
		Description: `site writes a static web site of the records folder DIR into --out: index.html, the
index's rows (feature × hardware, the latest verdict and headline, a small trend); a page
per feature with its series per hardware and scenario as plots (the baseline's median and
each arm's ratio with their intervals, VALID filled, INCONCLUSIVE and UNVERIFIED hollow,
REJECTED a cross, steps dashed), the steps with the records on either side and the
bisect that settled one, and every record; and a page per record and bisect summary, its
Markdown as HTML with its plots. Hover a point for its record, click to open it; or Tab
to a plot, move with the arrow keys, open with Enter.

It reads the records as index and history do (check's problems included, through the
same cache) and computes nothing else. No server, no build step, no remote resource:
open SITE/index.html from disk, upload the folder as a CI artifact or to GitHub Pages.
Nothing from a record is executed: its text is escaped, its raw HTML left out, its
images only the PNG files of its data folder whose sha256 it names, and every page
forbids inline script and any other origin. The same records give the same bytes; pages
of records that are gone are removed.`,
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageError("site: name one folder of records")
			}
			cache := checkCache(c)
			res, err := website.Build(website.Options{Dir: c.Args().First(), Out: c.String("out"), Cache: cache, Regimes: website.Regimes,
				Progress: newRecordsProgress(c.App.ErrWriter, "site", time.Now)})
			cache.MaybePrune(time.Now())
			if err != nil {
				return &exitError{code: 1, msg: "site: " + termsafe.String(err.Error())}
			}
			for _, u := range res.Unreadable {
				fmt.Fprintf(c.App.ErrWriter, "decodebench: site: not a record: %s\n", termsafe.String(u.Err.Error()))
			}
			fmt.Fprintf(c.App.Writer, "%s: %d page(s), %d file(s) written, %d removed\n",
				termsafe.String(filepath.Join(c.String("out"), "index.html")), res.Pages, len(res.Written), len(res.Removed))
			return nil
		},
	}
}
