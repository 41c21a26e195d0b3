package recorder

import (
	"strings"

	"github.com/decodebench/decodebench/schema"
)

func (m *mdWriter) counters(r *schema.Record) {
	m.ln("## Counter evidence")
	m.ln("")
	if len(r.Counters) == 0 {
		m.ln("The scenario declares no counters.")
		m.ln("")
		return
	}
	for _, c := range r.Counters {
		m.p("- %s: %s %s; expects %s.\n", code(c.Name), text(c.Kind), code(c.Expr), expectString(c.Expect, r.Scenario.Arms))
	}
	m.ln("")
	header := "| Run | Round | Arm |"
	sep := "|---:|---:|---|"
	for _, c := range r.Counters {
		header += " " + cell(text(c.Name)) + " (expected) | seen |"
		sep += "---|---:|"
	}
	m.ln(header)
	m.ln(sep)
	for i, run := range r.Runs {
		m.p("| %d | %d | %s |", run.Seq, run.Round, cellCode(run.Arm))
		mk := markOf(r, i)
		for _, c := range r.Counters {
			cr, ok := run.Counters[c.Name]
			expect := cell(text(dash(c.Expect[run.Arm])))
			switch {
			case !ok:
				m.p(" %s | — |", expect)
			default:
				mark := ""
				if okv, judged := mk.CounterOK[c.Name]; judged && okv {
					mark = " ✅"
				} else if judged {
					mark = " ❌"
				}
				absent := ""
				if cr.Absent {
					absent = " (absent)"
				}
				m.p(" %s | %s%s%s |", expect, count(cr.Value), absent, mark)
			}
		}
		m.ln("")
	}
	m.ln("")
}

func expectString(ex map[string]string, arms []schema.ArmInfo) string {
	var parts []string
	for _, a := range arms {
		if e, ok := ex[a.Name]; ok {
			parts = append(parts, code(a.Name)+" "+text(e))
		}
	}
	return strings.Join(parts, ", ")
}
