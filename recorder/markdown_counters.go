package recorder

import (
	"maps"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/schema"
)

func (m *mdWriter) counters(r *schema.Record) {
	m.h2("Counter evidence")
	if len(r.Counters) == 0 {
		m.ln("The scenario declares no counters.")
		m.ln("")
		return
	}
	for _, c := range r.Counters {
		phase := ""
		if c.Phase == schema.PhaseStartup {
			phase = " over the engine's start-up log, until it was ready"
		}
		m.p("- %s: %s %s%s; expects %s.\n", code(c.Name), text(string(c.Kind)), code(c.Expr), phase, expectString(m.expected(r, c), r.Scenario.Arms))
	}
	m.ln("")
	cols := slices.Clone(runColumns)
	for _, c := range r.Counters {
		ex := m.expected(r, c)
		cols = append(cols,
			left(cellText(c.Name)+" (expected)", func(r runRow) string { return cellText(dash(ex[r.Arm])) }),
			right("seen", func(r runRow) string { return seenCell(r, c.Name) }))
	}
	if m.fold {
		m.ln(counterTally(r))
		m.ln("")
		m.details("Each run's readings")
	}
	table(m, cols, runRows(r))
	m.ln("")
	if m.fold {
		m.endDetails()
	}
}

// seenCell is a counter's reading in a run, marked as the analysis judged it.
func seenCell(r runRow, counter string) string {
	cr, ok := r.Counters[counter]
	if !ok {
		return "—"
	}
	s := readingText(cr)
	switch {
	case cr.Impossible:
		s = "not a finite number"
	case r.LostCount == counter && !r.OK():
		s = "no line (run failed)"
	case cr.Absent:
		s += " (absent)"
	}
	if ok, judged := r.mark.CounterOK[counter]; judged && ok {
		s += " ✅"
	} else if judged {
		s += " ❌"
	}
	return s
}

// expected is each arm's expectation of counter c as the record states
// it: the scenario's, and from robust-12 on a negative control without
// one of its own the baseline's, which it is judged by
// (scenarios.Policy), marked as such.
func (m *mdWriter) expected(r *schema.Record, c schema.CounterSpec) map[string]string {
	if !m.st.asRun() {
		return c.Expect
	}
	base, ok := c.Expect[r.Scenario.Baseline]
	if !ok {
		return c.Expect
	}
	ex := maps.Clone(c.Expect)
	for _, a := range r.Scenario.Arms {
		if _, own := ex[a.Name]; a.Control && !own {
			ex[a.Name] = base + " (the baseline's)"
		}
	}
	return ex
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

// readingText is a counter's reading: a text source's text, else the
// number.
func readingText(cr schema.CounterReading) string {
	if cr.Text != "" {
		return cellText(cr.Text)
	}
	return count(cr.Value)
}
