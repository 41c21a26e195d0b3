package recorder

import (
	"fmt"
	"math"
	"strconv"

	"github.com/decodebench/decodebench/internal/abbrev"
	"github.com/decodebench/decodebench/schema"
)

func (m *mdWriter) title(r *schema.Record) {
	a := r.Analysis
	m.p("# %s — %s\n\n", text(r.Title), r.Verdict)
	gates := ""
	if m.fold {
		gates = gatesSentence(a)
	}
	m.p("**Verdict: %s** (exit %d). %s%s\n\n", r.Verdict, r.ExitCode(), verdictSentence(r), gates)
	for _, reason := range append(append([]schema.Reason{}, a.Reasons...), a.Flags...) {
		m.p("- %s\n", m.reasonLine(reason))
	}
	for _, reason := range a.AlsoFailed {
		m.p("- Also failed: %s\n", m.reasonLine(reason))
	}
	if len(a.Reasons)+len(a.Flags)+len(a.AlsoFailed) > 0 {
		m.ln("")
	}
	for _, w := range r.Scenario.Warnings {
		m.p("> **Warning:** scenario: %s\n", text(w))
	}
	for _, w := range a.Warnings {
		m.p("> **Warning:** %s\n", m.reasonLine(w))
	}
	if len(a.Warnings)+len(r.Scenario.Warnings) > 0 {
		m.ln("")
	}
	if r.Verdict.ShowsResults() && len(a.ArmVerdicts) > 0 {
		m.p("On %s (%s):\n\n", code(r.Scenario.Primary), m.st.verdictBasis(r))
		for _, v := range a.ArmVerdicts {
			m.p("- %s\n", m.st.armVerdict(v, r.Scenario.Baseline, m.st.senseOf(r, r.Scenario.Primary)))
		}
		m.ln("")
	}
}

func verdictSentence(r *schema.Record) string {
	switch r.Verdict {
	case schema.Valid:
		if lost := lostAttempts(r); lost > 0 {
			return fmt.Sprintf("Every measured run showed the counter evidence its arm expects; %d attempt(s) that printed no line for a count their arm needs failed ", lost) +
				"and were retried or excluded (below). The results below are publishable."
		}
		return "Every measured run showed the counter evidence its arm expects; the results below are publishable."
	case schema.Rejected:
		if rs := r.Analysis.Reasons; len(rs) > 0 {
			if _, lost := rs[0].(schema.TooManyLostCounts); lost {
				return "The counter gate failed: too many runs of an arm printed no line for a count their arm needs, more than a lost log tail explains (below), so the arms are not proven to differ. " +
					"No results are shown; raw samples are kept in the data folder for diagnosis."
			}
		}
		return "The counter gate failed: at least one run did not show the evidence its arm expects, so the arms are not proven to differ. No results are shown; raw samples are kept in the data folder for diagnosis."
	case schema.Unverified:
		return fmt.Sprintf("No counter tells the arms apart; the scenario allowed running without proof, for this reason: %s. Treat the results as unverified.", text(strconv.Quote(r.Scenario.AllowUnverified)))
	case schema.Inconclusive:
		return "The campaign ran, but the results do not support a conclusion (reasons below). Do not publish."
	case schema.Failed:
		if rs := r.Analysis.Reasons; len(rs) > 0 {
			if _, absent := rs[0].(schema.SourceAbsent); absent {
				return "Scenario error: a counter's source was absent from every run of every arm (below), so the counter proves nothing. Finished runs are kept below and in the data folder."
			}
		}
		return "The campaign did not finish: a run failed. Finished runs are kept below and in the data folder."
	case schema.Incomplete:
		return "The campaign was interrupted; the record holds the runs that finished."
	}
	return ""
}

func (m *mdWriter) summary(r *schema.Record) {
	m.h2("Summary")
	m.p("| | |\n|---|---|\n")
	m.p("| Feature | %s |\n", cellCode(r.Feature))
	if r.Issue != "" {
		m.p("| Issue | %s |\n", cellText(r.Issue))
	}
	m.p("| Scenario | %s (sha256 of its meaning %s) |\n", cellCode(newShortPaths(r).path(r.Scenario.Path)), cellCode(abbrev.Hash(r.Scenario.Hash)))
	if len(r.Scenario.Overrides) > 0 {
		m.p("| Overridden | %s (on the command line; the stored scenario is the file as written) |\n", cell(backquoted(r.Scenario.Overrides, ", ")))
	}
	m.p("| Arms | %s |\n", armList(r))
	m.p("| Baseline | %s |\n", cellCode(r.Scenario.Baseline))
	m.p("| Primary metric | %s (%s) |\n", cellCode(r.Scenario.Primary), direction(r.HigherIsBetter(r.Scenario.Primary)))
	m.p("| Hardware | %s |\n", cellCode(r.Hardware))
	m.p("| Date | %s |\n", cellText(r.Date))
	ok := countOf(r.Runs, schema.Run.OK)
	m.p("| Runs | %d measured, %d failed, of %d planned |\n", ok, len(r.Runs)-ok, len(r.Method.Planned))
	outliers := countOf(r.Analysis.Marks, func(mk schema.Mark) bool { return mk.Outlier })
	dropped := countOf(r.Analysis.Marks, func(mk schema.Mark) bool { return mk.Dropped })
	if outliers > 0 {
		m.p("| Outliers | %d run(s) flagged on %s (%s), %d dropped |\n", outliers, cellCode(r.Scenario.Primary), outlierRule(), dropped)
	} else {
		m.p("| Outliers | none flagged on %s |\n", cellCode(r.Scenario.Primary))
	}
	if r.Verdict.ShowsResults() {
		if res, found := r.Result(r.Scenario.Primary); found {
			for _, a := range res.Arms {
				if a.Arm == r.Scenario.Baseline {
					continue
				}
				if a.Comparison == nil || !a.Comparison.Defined() {
					m.p("| **%s vs %s** | no comparison could be made |\n", cellText(a.Arm), cellText(r.Scenario.Baseline))
					continue
				}
				m.p("| **%s vs %s** | **%s× %s** %s (median %s vs %s %s) |\n", cellText(a.Arm), cellText(r.Scenario.Baseline), num(a.Comparison.Ratio, 3), cellText(r.Scenario.Primary),
					ratioCI(a), num(a.Median, 4), num(baselineMedian(res, r.Scenario.Baseline), 4), cellText(res.Unit))
			}
		}
	}
	m.ln("")
}

// countOf counts the items for which f holds.
func countOf[T any](xs []T, f func(T) bool) int {
	n := 0
	for _, x := range xs {
		if f(x) {
			n++
		}
	}
	return n
}

func armList(r *schema.Record) string {
	names := make([]string, len(r.Scenario.Arms))
	for i, a := range r.Scenario.Arms {
		names[i] = a.Name
	}
	return cell(backquoted(names, ", "))
}

func baselineMedian(res schema.MetricResult, baseline string) float64 {
	for _, a := range res.Arms {
		if a.Arm == baseline {
			return a.Median
		}
	}
	return math.NaN()
}

func direction(higher bool) string {
	if higher {
		return "higher is better"
	}
	return "lower is better"
}

// lostAttempts counts the record's runs that failed for a lost count
// (schema.Run.LostCount).
func lostAttempts(r *schema.Record) int {
	return countOf(r.Runs, func(run schema.Run) bool { return !run.OK() && run.LostCount != "" })
}
