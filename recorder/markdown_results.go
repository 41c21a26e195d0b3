package recorder

import (
	"fmt"
	"strings"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/internal/pct"
	"github.com/decodebench/decodebench/schema"
)

func (m *mdWriter) results(r *schema.Record) {
	m.h2("Results")
	if r.Verdict != schema.Valid {
		m.p("> **Do not publish:** verdict %s.\n\n", r.Verdict)
	}
	m.ln(resultsLegend(m.st.rule))
	m.ln("")
	for _, res := range r.Analysis.Results {
		role := "secondary"
		if res.Primary {
			role = "primary"
		}
		if res.Unit == "" && r.Schema != schema.SchemaV2 {
			m.p("### %s (%s, %s)\n\n", code(res.Metric), role, direction(res.HigherIsBetter))
		} else {
			m.p("### %s (%s, %s, %s)\n\n", code(res.Metric), text(res.Unit), role, direction(res.HigherIsBetter))
		}
		m.ln("| Arm | n | median [interval] | MAD | Q1 | Q3 | min | max | CV | spread | outliers | drift | ratio [interval] | p | verdict |")
		m.ln("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---|")
		baselineN := 0
		for _, a := range res.Arms {
			if a.Comparison == nil {
				baselineN = a.N
			}
		}
		for _, a := range res.Arms {
			if r.Schema != schema.SchemaV2 && (a.N == 0 || (a.Comparison != nil && baselineN == 0)) {
				m.ln(absentRow(a, baselineN))
				continue
			}
			ratio, p, verdict := "1 (baseline)", "—", "—"
			if c := a.Comparison; c != nil {
				judged := *c
				if v, ok := armVerdictOf(r, a.Arm); ok && res.Primary {
					judged = v.Comparison
				}
				ratio, p, verdict = num(c.Ratio, 4)+"× "+ratioCI(a), num(c.P, 2), m.st.comparisonSentence(judged, m.st.senseIn(senseOfUnit(res.HigherIsBetter, res.Unit)), res.Primary)
			}
			outliers := fmt.Sprint(a.Outliers)
			if a.Dropped > 0 {
				outliers += fmt.Sprintf(" (%d dropped)", a.Dropped)
			}
			m.p("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %+.1f%% | %s | %s | %s |\n", cellCode(a.Arm), a.N,
				medianCI(a), num(a.MAD, 3),
				num(a.Q1, 4), num(a.Q3, 4), num(a.Min, 4), num(a.Max, 4), pct.Fixed(a.CV, 2), pct.Fixed(a.Spread(), 2), outliers, a.Drift*100, ratio, p, verdict)
		}
		m.ln("")
		if res.Primary {
			for _, plot := range r.Plots {
				if strings.HasSuffix(plot, ".png") {
					m.p("![%s](%s)\n\n", text(strings.TrimSuffix(plot, ".png")), linkPath(r.DataDir+"/"+plot))
				}
			}
		}
	}
}

// verdictBasis states how the primary verdicts were reached: the level of
// the ratio intervals and the family-wise alpha.
func (f style) verdictBasis(r *schema.Record) string {
	a := r.Analysis
	s := intervalBasis(f.rule, r.Method)
	switch q := a.Sequential; {
	case q != nil && q.Spending != "":
		s += fmt.Sprintf("; sequential: %d of %d looks taken, %s spending, %s of the planned information, alpha %s spent",
			len(q.Looks), q.PlannedLooks, q.Spending, pct.Fixed(q.Information, 0), f.level(q.AlphaSpent))
		if l, ok := f.rule.Looks.(analysis.SpendingLooks); ok && l.Budget == analysis.BudgetAsTested && r.Method.MaxTime != "" {
			s += "; " + budgetText(r.Method)
		}
	case q != nil:
		s += fmt.Sprintf("; sequential: %d of %d looks taken, alpha %s a look, %s spent", len(q.Looks), q.PlannedLooks, f.level(q.AlphaPerLook), f.level(q.AlphaSpent))
	}
	if a.FamilySize > 1 {
		s += fmt.Sprintf("; family-wise alpha %s over %d arms (Holm)", count(a.FamilyAlpha), a.FamilySize)
	} else if a.FamilyAlpha > 0 {
		s += fmt.Sprintf("; alpha %s", count(a.FamilyAlpha))
	}
	return s
}

// budgetText states a schedule's budget and the rounds it planned at each
// look taken.
func budgetText(me schema.Method) string {
	s := "budget " + text(me.MaxTime)
	if len(me.PlannedRounds) == 0 {
		return s
	}
	planned := make([]string, len(me.PlannedRounds))
	for i, n := range me.PlannedRounds {
		planned[i] = fmt.Sprint(n)
	}
	return s + ", rounds it allowed at each look " + strings.Join(planned, ", ")
}

// armVerdictOf returns an arm's primary verdict.
func armVerdictOf(r *schema.Record, arm string) (schema.ArmVerdict, bool) {
	for _, v := range r.Analysis.ArmVerdicts {
		if v.Arm == arm {
			return v, true
		}
	}
	return schema.ArmVerdict{}, false
}

// medianCI formats a median with its interval and the interval's level.
func medianCI(a schema.ArmResult) string {
	if a.MedianConfidence == 0 {
		return num(a.Median, 4)
	}
	return fmt.Sprintf("%s [%s, %s] (%s)", num(a.Median, 4), num(a.MedianLo, 4), num(a.MedianHi, 4), pct.Fixed(a.MedianConfidence, 2))
}

// ratioCI formats a ratio's interval, or nothing when it has none.
func ratioCI(a schema.ArmResult) string {
	c := a.Comparison
	if c == nil || !c.HasInterval() {
		return ""
	}
	return "[" + num(c.Lo, 4) + ", " + num(c.Hi, 4) + "]"
}

// absentRow is the row of an arm that has no value for the metric, or
// whose baseline has none: dashes, never statistics of nothing (records
// before v3 printed zeros there).
func absentRow(a schema.ArmResult, baselineN int) string {
	if a.N == 0 {
		return fmt.Sprintf("| %s | 0 |%s no value for this arm (source absent) |", cellCode(a.Arm), strings.Repeat(" — |", 12))
	}
	ratio := "— (no baseline value)"
	return fmt.Sprintf("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %d | %+.1f%% | %s | — | no value for the baseline (source absent) |", cellCode(a.Arm), a.N,
		medianCI(a), num(a.MAD, 3), num(a.Q1, 4), num(a.Q3, 4), num(a.Min, 4), num(a.Max, 4), pct.Fixed(a.CV, 2), pct.Fixed(a.Spread(), 2), a.Outliers, a.Drift*100, ratio)
}
