package export

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/decodebench/decodebench/history"
)

// HistoryCSV writes the rows as CSV: a header of the column names, then
// one line per row; a row's missing value is an empty cell, a bool 1 or 0.
// A text cell a spreadsheet would take for a formula is neutralised
// (csvText); a number column holds numbers, negative ones included, as
// numbers.
func HistoryCSV(w io.Writer, rows []history.Row) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(HistoryColumnNames()); err != nil {
		return err
	}
	cells := make([]string, len(HistoryColumns))
	for _, r := range rows {
		for i, col := range HistoryColumns {
			cells[i] = csvCell(col.Value(r))
		}
		if err := cw.Write(cells); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// csvCell writes a column's value.
func csvCell(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return csvText(x)
	case bool:
		if x {
			return "1"
		}
		return "0"
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return "" // no value: "-Inf" would read as a formula
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	panic(fmt.Sprintf("history column of type %T", v))
}

// csvText is a text cell: one line (OneLine), and, when a spreadsheet would
// evaluate it (its first character, after any blanks, is =, +, -, @, a
// tab or a carriage return, or a full-width =, +, - or @), a single quote
// before it, the OWASP rule against CSV injection: an engine's version
// "=HYPERLINK(…)" is then text. A genuine negative number is never text:
// the number columns are written from numbers (csvCell), so "-1.5" there
// stays a number, and a text column that reads "-1" is quoted like any
// other text that starts with a minus.
func csvText(s string) string {
	s = OneLine(s)
	if r, _ := utf8.DecodeRuneInString(strings.TrimLeft(s, " ")); strings.ContainsRune("=+-@\t\r＝＋－＠", r) {
		return "'" + s
	}
	return s
}
