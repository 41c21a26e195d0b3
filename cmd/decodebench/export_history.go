package main

import (
	"bytes"
	"database/sql"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"
	_ "modernc.org/sqlite" // the pure-Go SQLite driver: no C toolchain needed

	"github.com/decodebench/decodebench/history"
	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/review"
)

// historyTable is the SQLite table an export --history writes.
const historyTable = "history"

// historyColumn is one column of a history export, in CSV and SQLite.
type historyColumn struct {
	name, sqlType string
	value         func(history.Row) any // string, int64, float64, bool or nil (no value)
}

// historyColumns are the export's columns, in order (documented in the
// export command's help).
var historyColumns = []historyColumn{
	{"record", "TEXT", func(r history.Row) any { return r.Record }},
	{"date", "TEXT", func(r history.Row) any { return r.Date }},
	{"feature", "TEXT", func(r history.Row) any { return r.Feature }},
	{"hardware", "TEXT", func(r history.Row) any { return r.Hardware }},
	{"verdict", "TEXT", func(r history.Row) any { return string(r.Verdict) }},
	{"scenario_hash", "TEXT", func(r history.Row) any { return r.ScenarioHash }},
	{"arm", "TEXT", func(r history.Row) any { return r.Arm }},
	{"baseline", "TEXT", func(r history.Row) any { return r.Baseline }},
	{"is_baseline", "INTEGER", func(r history.Row) any { return r.IsBaseline }},
	{"control", "INTEGER", func(r history.Row) any { return r.Control }},
	{"metric", "TEXT", func(r history.Row) any { return r.Metric }},
	{"unit", "TEXT", func(r history.Row) any { return r.Unit }},
	{"primary_metric", "INTEGER", func(r history.Row) any { return r.Primary }},
	{"higher_is_better", "INTEGER", func(r history.Row) any { return r.HigherBetter }},
	{"n", "INTEGER", func(r history.Row) any { return int64(r.N) }},
	{"median", "REAL", func(r history.Row) any { return r.Median }},
	{"median_lo", "REAL", func(r history.Row) any { return r.MedianLo }},
	{"median_hi", "REAL", func(r history.Row) any { return r.MedianHi }},
	{"ratio", "REAL", ratioValue(func(r history.Row) float64 { return r.Ratio })},
	{"ratio_lo", "REAL", ratioValue(func(r history.Row) float64 { return r.RatioLo })},
	{"ratio_hi", "REAL", ratioValue(func(r history.Row) float64 { return r.RatioHi })},
	{"ratio_confidence", "REAL", ratioValue(func(r history.Row) float64 { return r.RatioConfidence })},
	{"p", "REAL", ratioValue(func(r history.Row) float64 { return r.P })},
	{"significant", "INTEGER", func(r history.Row) any {
		if !r.HasRatio {
			return nil
		}
		return r.Significant
	}},
	{"engine_version", "TEXT", func(r history.Row) any { return r.EngineVersion }},
	{"engine_sha256", "TEXT", func(r history.Row) any { return r.EngineSHA256 }},
	{"source_commit", "TEXT", func(r history.Row) any { return r.SourceCommit }},
	{"decodebench_version", "TEXT", func(r history.Row) any { return r.Decodebench }},
}

// ratioValue is a ratio's field, no value on a row without a ratio.
func ratioValue(f func(history.Row) float64) func(history.Row) any {
	return func(r history.Row) any {
		if !r.HasRatio {
			return nil
		}
		return f(r)
	}
}

var historyFlags = []cli.Flag{
	&cli.StringFlag{Name: "history", Usage: "export every record of the records folder `DIR` (--format csv or sqlite)"},
	&cli.StringFlag{Name: "out", Usage: "the file to write (required for sqlite; csv goes to stdout without it)"},
}

const historyHelp = `

--history DIR writes every record of DIR, one row per record × arm × metric, for dashboards:
--format csv (to stdout, or --out FILE) or --format sqlite --out FILE (table "history",
through the pure-Go modernc.org/sqlite driver; the file is replaced whole). Columns: ` +
	"record, date, feature, hardware, verdict, scenario_hash, arm, baseline, is_baseline, control, metric, unit, primary_metric, higher_is_better, n, median, median_lo, median_hi, ratio, ratio_lo, ratio_hi, ratio_confidence, p, significant, engine_version, engine_sha256, source_commit, decodebench_version" + `.
The ratio columns (arm / baseline medians, its interval, the Mann-Whitney p) are empty
(NULL) on the baseline's rows. Rows come by date, then record, metric and arm; the same
records give the same bytes (CSV) and the same rows (SQLite).`

func exportHistory(c *cli.Context, dir string) error {
	if c.NArg() != 0 {
		return usageError("export --history DIR: name no record")
	}
	recs, bad, err := review.LoadHistory(dir)
	if err != nil {
		return &exitError{code: 1, msg: "export: " + err.Error()}
	}
	for _, e := range bad {
		fmt.Fprintf(c.App.ErrWriter, "export: skipped %s\n", oneLine(e.Error()))
	}
	rows := history.Rows(recs)
	out := c.String("out")
	switch c.String("format") {
	case "csv":
		if out == "" {
			return writeHistoryCSV(c.App.Writer, rows)
		}
		return writeAtomically(out, func(w io.Writer) error { return writeHistoryCSV(w, rows) })
	case "sqlite":
		if out == "" {
			return usageError("export --format sqlite: name the database file with --out FILE")
		}
		if err := writeHistorySQLite(out, rows); err != nil {
			return &exitError{code: 1, msg: "export: " + err.Error()}
		}
		return nil
	}
	return usageError("export --history: unknown format %q (known: csv, sqlite)", c.String("format"))
}

func writeHistoryCSV(w io.Writer, rows []history.Row) error {
	cw := csv.NewWriter(w)
	head := make([]string, len(historyColumns))
	for i, col := range historyColumns {
		head[i] = col.name
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	cells := make([]string, len(historyColumns))
	for _, r := range rows {
		for i, col := range historyColumns {
			cells[i] = csvCell(col.value(r))
		}
		if err := cw.Write(cells); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func csvCell(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return oneLine(x)
	case bool:
		if x {
			return "1"
		}
		return "0"
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	panic(fmt.Sprintf("history column of type %T", v))
}

// writeHistorySQLite writes the rows into a new database beside path and
// renames it over path, so a reader never sees half an export.
func writeHistorySQLite(path string, rows []history.Row) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".export-*.sqlite")
	if err != nil {
		return err
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	// The rollback journal is kept in memory: SQLite then creates no
	// side file by name ("<tmp>-journal") in the folder, where a link
	// planted at that name would be followed.
	db, err := sql.Open("sqlite", tmp.Name()+"?_pragma=journal_mode(memory)")
	if err != nil {
		return err
	}
	defer db.Close()
	var defs, marks []string
	for _, col := range historyColumns {
		defs = append(defs, col.name+" "+col.sqlType)
		marks = append(marks, "?")
	}
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.Exec("CREATE TABLE " + historyTable + " (" + strings.Join(defs, ", ") + ")"); err != nil {
		return err
	}
	ins, err := tx.Prepare("INSERT INTO " + historyTable + " VALUES (" + strings.Join(marks, ", ") + ")")
	if err != nil {
		return err
	}
	args := make([]any, len(historyColumns))
	for _, r := range rows {
		for i, col := range historyColumns {
			args[i] = col.value(r)
		}
		if _, err := ins.Exec(args...); err != nil {
			return err
		}
	}
	ins.Close()
	if _, err := tx.Exec("CREATE INDEX " + historyTable + "_series ON " + historyTable + " (feature, hardware, date)"); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	if err := db.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
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
