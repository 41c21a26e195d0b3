package recorder

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/schema"
)

// Markdown renders the record. A record of SchemaV5 leads with its answer
// (answerFirst); an earlier one has its sections in the order it was
// written in: title with the verdict, summary, engine, machine, method,
// where the time went (records whose runs timed their phases), counter
// evidence, results (only for verdicts that show them), raw runs, not
// measured, data.
func Markdown(w io.Writer, r *schema.Record) error {
	st, err := recordStyle(r, true)
	if err != nil {
		return err
	}
	var b strings.Builder
	md := &mdWriter{b: &b, st: st}
	if schema.AnswerFirst(r.Schema) {
		if err := md.answerFirst(r); err != nil {
			return err
		}
		_, err = io.WriteString(w, b.String())
		return err
	}
	md.title(r)
	md.summary(r)
	md.engine(r)
	md.machine(r)
	md.method(r)
	md.timeUse(r)
	md.counters(r)
	if r.Analysis.Identity != nil {
		md.identity(r)
	}
	if r.Verdict.ShowsResults() && len(r.Analysis.Results) > 0 {
		md.results(r)
	}
	if r.Analysis.Anatomy != nil {
		md.anatomy(r)
	}
	if hasStreams(r) {
		md.streams(r)
	}
	md.raw(r)
	md.notMeasured(r)
	if err := md.data(r); err != nil {
		return err
	}
	_, err = io.WriteString(w, b.String())
	return err
}

type mdWriter struct {
	b  *strings.Builder
	st style
	// fold is set for a record laid out with its answer first: long
	// identity tables (libraries, the counters per run) go into
	// <details> blocks.
	fold bool
}

func (m *mdWriter) p(format string, args ...any) { fmt.Fprintf(m.b, format, args...) }
func (m *mdWriter) ln(s string)                  { m.b.WriteString(s); m.b.WriteString("\n") }
func (m *mdWriter) h2(title string)              { m.p("## %s\n\n", title) }

// reasonLine states a reason on one line, whatever its parameters hold.
func (m *mdWriter) reasonLine(r schema.Reason) string { return oneLine(m.st.reason(r)) }

// Headline writes what a CI job summary shows of a record: its title with
// the verdict, the reasons and warnings, the arms' verdict sentences and
// the summary table, followed by where the full record is.
func Headline(w io.Writer, r *schema.Record, recordPath string) error {
	st, err := recordStyle(r, true)
	if err != nil {
		return err
	}
	var b strings.Builder
	// As the record lays them out: a record whose answer comes first
	// names its failed gates in its verdict's paragraph, and so does its
	// headline (a job summary lost them).
	md := &mdWriter{b: &b, st: st, fold: schema.AnswerFirst(r.Schema)}
	md.title(r)
	md.summary(r)
	md.p("Full record: %s\n\n", code(recordPath))
	_, err = io.WriteString(w, unmention(b.String()))
	return err
}

// unmention keeps a headline's @names from notifying anyone where a job
// summary or a pull request's comment shows it (a scenario's title or
// reason naming @someone or @org/team): outside code spans, where a name
// is inert anyway, each @ is followed by a zero-width space's entity, as
// Dependabot writes them. The record itself, which notifies nobody, is
// unchanged.
func unmention(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		switch s[i] {
		case '`':
			n := 1
			for i+n < len(s) && s[i+n] == '`' {
				n++
			}
			end := closingRun(s, i+n, n)
			if end < 0 {
				b.WriteString(s[i : i+n])
				i += n
				continue
			}
			b.WriteString(s[i:end])
			i = end
		case '@':
			b.WriteString("@&#8203;")
			i++
		default:
			b.WriteByte(s[i])
			i++
		}
	}
	return b.String()
}

// closingRun is the end of the first run of exactly n backticks at or
// after from, which closes a code span opened by n; -1 where none does.
func closingRun(s string, from, n int) int {
	for j := from; j < len(s); {
		if s[j] != '`' {
			j++
			continue
		}
		k := j
		for k < len(s) && s[k] == '`' {
			k++
		}
		if k-j == n {
			return k
		}
		j = k
	}
	return -1
}

// backquoted writes each item as inline code, joined by sep.
func backquoted(xs []string, sep string) string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = code(x)
	}
	return strings.Join(out, sep)
}

// column is one column of a table over rows of type T: its header, its
// alignment and its cell; where present is set, the column shows only if
// it holds for some row, so records without the reading stay as they were.
type column[T any] struct {
	head, align string
	cell        func(T) string
	present     func(T) bool
}

func left[T any](head string, cell func(T) string) column[T] {
	return column[T]{head: head, align: "---", cell: cell}
}

func right[T any](head string, cell func(T) string) column[T] {
	return column[T]{head: head, align: "---:", cell: cell}
}

// when shows the column only where present holds for some row.
func (c column[T]) when(present func(T) bool) column[T] { c.present = present; return c }

// optional shows the column only where some row's cell is not a dash.
func (c column[T]) optional() column[T] {
	return c.when(func(r T) bool { return c.cell(r) != "—" })
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
