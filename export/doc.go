// Package export writes records' data in other programs' formats, one
// file per format, each a plain function of typed data: the Go benchmark
// format of one record's runs (Benchstat), and a records folder's history
// as CSV (HistoryCSV) or as a SQLite database (HistorySQLite), one row per
// record × arm × metric with the columns of HistoryColumns. The same data
// always gives the same bytes (CSV, benchstat) or the same rows (SQLite).
package export

import "strings"

// OneLine keeps a text value on its line: line breaks become spaces.
func OneLine(s string) string { return strings.NewReplacer("\n", " ", "\r", " ").Replace(s) }
