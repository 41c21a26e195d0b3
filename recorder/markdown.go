package recorder

import (
	"fmt"
	"io"
	"strings"

	"github.com/decodebench/decodebench/schema"
)

// DataFence is the info string of the fenced block that carries the record's
// machine-readable data, so tools can read a record without its data folder.
const DataFence = "json decodebench-record"

// The data block's fence lines and what follows it: nothing else may come
// after the block.
const (
	dataFenceStart = "```" + DataFence
	dataFenceEnd   = "```"
	dataTrailer    = "</details>"
)

// Markdown renders the record. Sections come in a fixed order: title with
// the verdict, summary, engine, machine, method, counter evidence, results
// (only for verdicts that show them), raw runs, not measured, data.
func Markdown(w io.Writer, r *schema.Record) error {
	var b strings.Builder
	md := &mdWriter{b: &b}
	md.title(r)
	md.summary(r)
	md.engine(r)
	md.machine(r)
	md.method(r)
	md.counters(r)
	if r.Analysis.Identity != nil {
		md.identity(r)
	}
	if r.Verdict.ShowsResults() && len(r.Analysis.Results) > 0 {
		md.results(r)
	}
	md.raw(r)
	md.notMeasured(r)
	if err := md.data(r); err != nil {
		return err
	}
	_, err := io.WriteString(w, b.String())
	return err
}

type mdWriter struct{ b *strings.Builder }

func (m *mdWriter) p(format string, args ...any) { fmt.Fprintf(m.b, format, args...) }
func (m *mdWriter) ln(s string)                  { m.b.WriteString(s); m.b.WriteString("\n") }

// reasonLine states a reason on one line, whatever its parameters hold.
func reasonLine(r schema.Reason) string { return oneLine(reasonText(r)) }

// Headline writes what a CI job summary shows of a record: its title with
// the verdict, the reasons and warnings, the arms' verdict sentences and
// the summary table, followed by where the full record is.
func Headline(w io.Writer, r *schema.Record, recordPath string) error {
	var b strings.Builder
	md := &mdWriter{b: &b}
	md.title(r)
	md.summary(r)
	md.p("Full record: %s\n\n", code(recordPath))
	_, err := io.WriteString(w, b.String())
	return err
}

// backquoted writes each item as inline code, joined by sep.
func backquoted(xs []string, sep string) string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = code(x)
	}
	return strings.Join(out, sep)
}

// markOf returns the analysis' mark of the i-th run.
func markOf(r *schema.Record, i int) schema.Mark {
	if i < len(r.Analysis.Marks) {
		return r.Analysis.Marks[i]
	}
	return schema.Mark{}
}
