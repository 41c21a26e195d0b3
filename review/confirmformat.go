package review

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/decodebench/decodebench/internal/pct"
	"github.com/decodebench/decodebench/internal/termsafe"
)

// WriteText writes the confirmation for the terminal, every value from a
// record escaped by termsafe.
func (c Confirmation) WriteText(w io.Writer) error {
	t := termsafe.String
	fmt.Fprintln(w, "Confirmation by a second session (--confirm):")
	for i, s := range c.Sessions {
		fmt.Fprintf(w, "  session %d: %s → %s%s\n", i+1, t(s.Old), t(s.New), sharesText(s))
	}
	fmt.Fprintln(w)
	if len(c.Refused) > 0 {
		for _, r := range c.Refused {
			fmt.Fprintln(w, "Refused: "+termsafe.Text(r)+".")
		}
		return nil
	}
	if len(c.Conditions) == 0 {
		fmt.Fprintln(w, "Conditions: the two sessions' new records share machine, engine, model files, decodebench, scenario and gates.")
	} else {
		fmt.Fprintln(w, "Conditions that differ between the two sessions' records (new, and old when each has its own):")
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, d := range c.Conditions {
			fmt.Fprintf(tw, "  %s\t%s\t→ %s\n", t(d.What), t(dash(d.Old)), t(dash(d.New)))
		}
		tw.Flush()
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Method: "+c.methodText())
	if len(c.Arms) == 0 {
		fmt.Fprintln(w, "No arm ratio to confirm: the records share no baseline.")
		return nil
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "  arm / baseline\tmetric\t"+sessionHeads(len(c.Sessions), "\t")+"\tcombined [interval]\tp\tQ (p, I²)\toutcome")
	for _, a := range c.Arms {
		fmt.Fprintf(tw, "  %s / %s\t%s\t%s\t%s\t%s\t%s\t%s\n", t(a.Arm), t(a.Baseline), t(a.Metric), sessionCells(a, "\t"), estimateText(a.Combined), pText(a.Combined), qText(a), a.Outcome)
	}
	tw.Flush()
	fmt.Fprintln(w)
	for _, a := range c.Arms {
		fmt.Fprintf(w, "%s / %s: %s\n", t(a.Arm), t(a.Baseline), outcomeText(a, c))
	}
	fmt.Fprintln(w, c.verdictText())
	return nil
}

// WriteMarkdown writes the confirmation to paste into a pull request.
func (c Confirmation) WriteMarkdown(w io.Writer) error {
	fmt.Fprintln(w, "**Confirmation by a second session** (`--confirm`):")
	fmt.Fprintln(w)
	for i, s := range c.Sessions {
		fmt.Fprintf(w, "- session %d: %s → %s%s\n", i+1, confirmCode(s.Old), confirmCode(s.New), sharesText(s))
	}
	fmt.Fprintln(w)
	if len(c.Refused) > 0 {
		for _, r := range c.Refused {
			fmt.Fprintln(w, "**Refused:** "+cellText(r)+".")
		}
		return nil
	}
	if len(c.Conditions) == 0 {
		fmt.Fprintln(w, "Conditions: the two sessions' new records share machine, engine, model files, decodebench, scenario and gates.")
	} else {
		fmt.Fprintln(w, "**Conditions that differ** between the two sessions' records (new, and old when each has its own):")
		fmt.Fprintln(w)
		fmt.Fprintln(w, "| | session 1 | session 2 |")
		fmt.Fprintln(w, "|---|---|---|")
		for _, d := range c.Conditions {
			fmt.Fprintf(w, "| %s | %s | %s |\n", cellText(d.What), confirmCode(d.Old), confirmCode(d.New))
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Method: "+c.methodText())
	fmt.Fprintln(w)
	if len(c.Arms) == 0 {
		fmt.Fprintln(w, "No arm ratio to confirm: the records share no baseline.")
		return nil
	}
	fmt.Fprintln(w, "| arm / baseline | metric | "+sessionHeads(len(c.Sessions), " | ")+" | combined [interval] | p | Q (p, I²) | |")
	fmt.Fprintln(w, "|---|---|"+strings.Repeat("---:|", len(c.Sessions))+"---:|---:|---:|---|")
	for _, a := range c.Arms {
		fmt.Fprintf(w, "| %s / %s | %s | %s | %s | %s | %s | %s |\n", confirmCode(a.Arm), confirmCode(a.Baseline), confirmCode(a.Metric), sessionCells(a, " | "), estimateText(a.Combined), pText(a.Combined), qText(a), outcomeMark(a.Outcome))
	}
	fmt.Fprintln(w)
	for _, a := range c.Arms {
		fmt.Fprintf(w, "- %s / %s: %s\n", confirmCode(a.Arm), confirmCode(a.Baseline), outcomeText(a, c))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "**"+c.verdictText()+"**")
	return nil
}

func sharesText(s Session) string {
	if s.SharesOld {
		return " (the first session's old record: the two estimates share its noise, counted as their covariance)"
	}
	return ""
}

// methodText states how the sessions are combined and what raises the
// alarm.
func (c Confirmation) methodText() string {
	f := c.Family
	comb := "inverse-variance weighting of the sessions (a fixed-effect meta-analysis)"
	if len(c.Sessions) > 1 && c.Sessions[1].SharesOld {
		comb = "inverse-variance weighting of the sessions (a fixed-effect meta-analysis; generalised least squares, as they share the old record, whose variance counts once and whole)"
	}
	var b strings.Builder
	b.WriteString("each record gives an arm's log ratio of medians to its baseline, with the standard error of its bootstrap interval (the interval's log width over 2z); ")
	b.WriteString("a session's change is its new record's minus its old record's; the change is combined by " + comb + ", ")
	b.WriteString("and the sessions' disagreement is Cochran's Q (with I²). ")
	if f == nil {
		b.WriteString("Without arm ratios, nothing is judged.")
		return b.String()
	}
	level := fmtG(f.Alpha / float64(f.Comparisons))
	fmt.Fprintf(&b, "An alarm of the first session is raised only when %s; ", agreementText(c.Rule.Agreement, level))
	if r := c.Rule; r.HeterogeneityAlpha > 0 {
		fmt.Fprintf(&b, "Cochran's Q has p ≥ %s", fmtG(r.HeterogeneityAlpha))
		switch {
		case r.OneSidedVeto && r.EachSignificantOverrides:
			b.WriteString(" (or the second session shows a larger regression than the first, or every session alone is such a regression)")
		case r.OneSidedVeto:
			b.WriteString(" (or the second session shows a larger regression than the first)")
		case r.EachSignificantOverrides:
			b.WriteString(" (or every session alone is such a regression)")
		}
		b.WriteString("; ")
	}
	fmt.Fprintf(&b, "and the combined change is a significant regression, two-sided at alpha %s over the %d arm ratio(s) ", fmtG(f.Alpha), f.Comparisons)
	fmt.Fprintf(&b, "(Bonferroni, as the single diff: p < %s, interval at %s)", level, pct.Sig(f.Confidence, 4))
	if c.Threshold > 0 {
		fmt.Fprintf(&b, ", of at least %s", pct.Exact(c.Threshold))
	}
	b.WriteString(".")
	return b.String()
}

func agreementText(a Agreement, level string) string {
	if a == SecondSignificant {
		return "the second session alone is a significant regression (one-sided, p < " + level + ")"
	}
	return "every session's own estimate points to a regression"
}

// outcomeText says why an arm's alarm was or was not raised.
func outcomeText(a ArmConfirmation, c Confirmation) string {
	switch a.Outcome {
	case NoAlarm:
		return "no alarm: the first session's gate found no significant regression, so there is nothing to confirm."
	case NoEstimate:
		return "the first session's alarm STANDS: a record has too few runs of the arm or its baseline for an interval " +
			"(or one of zero width, or ratios no number holds), so the second session can neither confirm nor dismiss it."
	case SessionsDisagree:
		return fmt.Sprintf("not raised: the sessions disagree beyond chance (Cochran's Q %s, p %s < %s, I² %s): one campaign's ratio moved with its session, not with the build.", fmtF(a.Q, 2), fmtG(a.QP), fmtG(c.Rule.HeterogeneityAlpha), pct.Fixed(a.I2, 0))
	case NotAgreed:
		if c.Rule.Agreement == SecondSignificant {
			return "not raised: the second session alone shows no significant regression."
		}
		return "not raised: a session's own estimate points the other way."
	case NotSignificant:
		return "not raised: the sessions combined show no significant regression at the family's alpha."
	case BelowThreshold:
		return "not raised: the combined change is below the threshold " + pct.Exact(c.Threshold) + "."
	case Raised:
		return fmt.Sprintf("RAISED: the second session agrees (its own change %s, one-sided p %s; Q p %s), and combined the change is %s, p %s.", estimateText(a.Sessions[len(a.Sessions)-1]), pFmt(a.Sessions[len(a.Sessions)-1].PWorse), fmtG(a.QP), estimateText(a.Combined), pText(a.Combined))
	}
	return string(a.Outcome)
}

// verdictText is the confirmation's last word.
func (c Confirmation) verdictText() string {
	var raised, stands, alarms []string
	for _, a := range c.Arms {
		if a.Alarm {
			alarms = append(alarms, a.Arm)
		}
		if a.Outcome == Raised {
			raised = append(raised, a.Arm)
		} else if a.stands() {
			stands = append(stands, a.Arm)
		}
	}
	switch {
	case len(raised) > 0 && len(stands) > 0:
		return fmt.Sprintf("Regression confirmed by the second session: %d of %d alarm(s) raised, and %d stand(s) unjudged.", len(raised), len(alarms), len(stands))
	case len(raised) > 0:
		return fmt.Sprintf("Regression confirmed by the second session: %d of %d alarm(s) raised.", len(raised), len(alarms))
	case len(stands) > 0:
		return fmt.Sprintf("Not judged: the second session cannot be combined with the first for %d of %d alarm(s), which stand.", len(stands), len(alarms))
	case len(alarms) > 0:
		return fmt.Sprintf("Not confirmed: the second session raises none of the first session's %d alarm(s).", len(alarms))
	}
	return "No alarm in the first session: nothing to confirm."
}

func sessionHeads(k int, sep string) string {
	var hs []string
	for i := range k {
		hs = append(hs, fmt.Sprintf("session %d", i+1))
	}
	return strings.Join(hs, sep)
}

func sessionCells(a ArmConfirmation, sep string) string {
	var cs []string
	for _, e := range a.Sessions {
		cs = append(cs, estimateText(e))
	}
	return strings.Join(cs, sep)
}

func estimateText(e Estimate) string {
	if e.SE == 0 {
		return "—"
	}
	return pct.Signed(e.Change, 1) + " [" + pct.Signed(e.Lo, 1) + ", " + pct.Signed(e.Hi, 1) + "]"
}

func pText(e Estimate) string {
	if e.SE == 0 {
		return "—"
	}
	return pFmt(e.P)
}

func pFmt(p float64) string {
	if p < 0.001 {
		return "<0.001"
	}
	return fmtG(p)
}

func qText(a ArmConfirmation) string {
	if a.Combined.SE == 0 {
		return "—"
	}
	return fmt.Sprintf("%s (p %s, I² %s)", fmtF(a.Q, 2), fmtG(a.QP), pct.Fixed(a.I2, 0))
}

func outcomeMark(o ConfirmOutcome) string {
	if o == Raised || o == NoEstimate {
		return "**" + string(o) + "**"
	}
	return string(o)
}

func fmtG(v float64) string { return strconv.FormatFloat(v, 'g', 2, 64) }

func fmtF(v float64, prec int) string { return strconv.FormatFloat(v, 'f', prec, 64) }

// confirmCode is a value from a record as a code span in a Markdown cell:
// control and bidi characters shown escaped (termsafe), then kept inside
// its span and its cell.
func confirmCode(s string) string {
	if s == "" {
		return cellCode(s)
	}
	return cellCode(termsafe.String(s))
}
