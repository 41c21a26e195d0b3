// Package export writes records' data in other programs' formats, one
// file per format, each a plain function of typed data: the Go benchmark
// format of one record's runs (Benchstat), and a records folder's history
// as CSV (HistoryCSV) or as a SQLite database (HistorySQLite), one row per
// record × arm × metric with the columns of HistoryColumns. The same data
// always gives the same bytes (CSV, benchstat) or the same rows (SQLite).
//
// Text from a record or an engine reaches a text format through OneLine,
// and a CSV cell through csvText, which also keeps a spreadsheet from
// evaluating it; SQLite stores every value as the record has it, through
// parameters (a value is never SQL), for a reader to escape where it
// shows one.
package export

import (
	"strings"

	"github.com/decodebench/decodebench/internal/termsafe"
)

// OneLine keeps a text value on its line and inert: line breaks and tabs
// become spaces, and every other control character, escape sequence,
// bidirectional override or invalid byte is shown as its escape (\x1b,
// \u202e, \xff), as on the console.
func OneLine(s string) string {
	return termsafe.String(strings.NewReplacer("\n", " ", "\r", " ", "\t", " ").Replace(s))
}
