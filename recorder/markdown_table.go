package recorder

import "slices"

// column is one column of a table over rows of type T: its header, its
// alignment (--- or ---:) and its cell; where present is set, the column
// shows only if some row has it, so records without it stay as they were.
type column[T any] struct {
	head, align string
	cell        func(T) string
	present     func(T) bool
}

// table writes the rows under the columns that are present.
func table[T any](m *mdWriter, cols []column[T], rows []T) {
	cols = slices.DeleteFunc(slices.Clone(cols), func(c column[T]) bool {
		return c.present != nil && !slices.ContainsFunc(rows, c.present)
	})
	head, align := "|", "|"
	for _, c := range cols {
		head += " " + c.head + " |"
		align += c.align + "|"
	}
	m.ln(head)
	m.ln(align)
	for _, r := range rows {
		line := "|"
		for _, c := range cols {
			line += " " + c.cell(r) + " |"
		}
		m.ln(line)
	}
}

// optional is a column shown only where some row's cell is not a dash.
func optional[T any](head, align string, cell func(T) string) column[T] {
	return column[T]{head: head, align: align, cell: cell, present: func(r T) bool { return cell(r) != "—" }}
}
