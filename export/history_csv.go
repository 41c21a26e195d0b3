package export

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"github.com/decodebench/decodebench/history"
)

// HistoryCSV writes the rows as CSV: a header of the column names, then
// one line per row; a row's missing value is an empty cell, a bool 1 or 0.
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
		return OneLine(x)
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
