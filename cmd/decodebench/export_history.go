package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/decodebench/decodebench/export"
	"github.com/decodebench/decodebench/history"
	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/review"
)

var historyFlags = []cli.Flag{
	&cli.StringFlag{Name: "history", Usage: "export every record of the records folder `DIR` (--format csv or sqlite)"},
	&cli.StringFlag{Name: "out", Usage: "the file to write (required for sqlite; csv goes to stdout without it)"},
}

var historyHelp = `

--history DIR writes every record of DIR, one row per record × arm × metric, for dashboards:
--format csv (to stdout, or --out FILE) or --format sqlite --out FILE (table "` + export.HistoryTable + `",
through the pure-Go modernc.org/sqlite driver; the file is replaced whole). Columns: ` +
	strings.Join(export.HistoryColumnNames(), ", ") + `.
The ratio columns are the record's own comparison of the arm with the baseline on the metric,
as its rule (the rule column) judged it: under robust-4 and later the ratio of the arm's runs
to the baseline's in the same rounds (the exponential of their mean log difference), its
interval and p on the primary metric as the verdict states them, at the level the arm was
judged at (a sequential look's, Holm's step; other metrics' at 1 − alpha); under
the first rule (median-U) and robust-1 to robust-3, other tests (docs/reference/statistics.md).
It is not the ratio of the two medians shown. They are empty (NULL) on the baseline's rows. Rows come by date, then record, metric and arm; the same
records give the same bytes (CSV) and the same rows (SQLite). A record that fails check is
left out, named on stderr (with check's cache: --cache-dir, --no-cache).`

func exportHistory(c *cli.Context, dir string) error {
	if c.NArg() != 0 {
		return usageError("export --history DIR: name no record")
	}
	recs, bad, err := review.LoadHistory(dir)
	if err != nil {
		return &exitError{code: 1, msg: "export: " + err.Error()}
	}
	for _, e := range bad {
		fmt.Fprintf(c.App.ErrWriter, "export: skipped %s\n", export.OneLine(e.Error()))
	}
	rows := history.Rows(checkedHistory(c, "export", dir, recs))
	out := c.String("out")
	switch c.String("format") {
	case "csv":
		if out == "" {
			return export.HistoryCSV(c.App.Writer, rows)
		}
		return writeAtomically(out, func(w io.Writer) error { return export.HistoryCSV(w, rows) })
	case "sqlite":
		if out == "" {
			return usageError("export --format sqlite: name the database file with --out FILE")
		}
		if err := export.HistorySQLite(out, rows); err != nil {
			return &exitError{code: 1, msg: "export: " + err.Error()}
		}
		return nil
	}
	return usageError("export --history: unknown format %q (known: csv, sqlite)", c.String("format"))
}

// writeAtomically writes a file through safefs: create-exclusive under a
// fresh temporary name in path's folder, renamed over path, so a link or
// FIFO at path is replaced, never written through or hung on. Links in
// the folder the user named are resolved once.
func writeAtomically(path string, write func(io.Writer) error) error {
	var b bytes.Buffer
	if err := write(&b); err != nil {
		return err
	}
	p, err := userTarget(path)
	if err != nil {
		return err
	}
	return safefs.WriteFile(p, b.Bytes(), 0o644)
}
