package review

import (
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/decodebench/decodebench/internal/pct"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/recorder"
)

// WriteText writes a diff for the terminal: every value from a record is
// escaped by termsafe (an engine version cannot clear the screen).
func (d Diff) WriteText(w io.Writer) error {
	t := termsafe.String
	fmt.Fprintf(w, "old: %s\nnew: %s\n\n", t(d.Old), t(d.New))
	if len(d.Conditions) == 0 {
		fmt.Fprintln(w, "Conditions: the same machine, engine, model files, decodebench, scenario and gates.")
	} else {
		fmt.Fprintln(w, "Conditions that differ (the comparison may be suspect):")
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, c := range d.Conditions {
			fmt.Fprintf(tw, "  %s\t%s\t→ %s\n", t(c.What), t(dash(c.Old)), t(dash(c.New)))
		}
		tw.Flush()
	}
	fmt.Fprintln(w)
	if len(d.Refused) > 0 {
		for _, r := range d.Refused {
			fmt.Fprintln(w, "Refused: "+termsafe.Text(r)+".")
		}
		return nil
	}
	fmt.Fprintf(w, "Per arm and metric, new against old (%s):\n", d.testText())
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "  arm\tmetric\told\tnew\tchange [interval]\tp\tverdict")
	for _, m := range d.Metrics {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\t%s\n", t(m.Arm), t(m.Metric), median(m.OldMedian, m.OldN, t(m.Unit)), median(m.NewMedian, m.NewN, t(m.Unit)), change(m.Change, m.Lo, m.Hi, m.Verdict), pval(m.P, m.Verdict), m.Verdict)
	}
	tw.Flush()
	if len(d.Ratios) > 0 {
		fmt.Fprintf(w, "\nEach arm's ratio to its own baseline, of medians (not the records' round-by-round ratio; it survives a change of machine; %s):\n", d.familyText())
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "  arm / baseline\tmetric\told ratio\tnew ratio\tchange [interval]\tp\tverdict")
		for _, r := range d.Ratios {
			fmt.Fprintf(tw, "  %s / %s\t%s\t%s\t%s\t%s\t%s\t%s\n", t(r.Arm), t(r.Baseline), t(r.Metric), ratio(r.Old), ratio(r.New), change(r.Change, r.Lo, r.Hi, r.Verdict), pval(r.P, r.Verdict), r.Verdict)
		}
		tw.Flush()
	}
	return nil
}

// WriteMarkdown writes a diff to paste into a pull request.
func (d Diff) WriteMarkdown(w io.Writer) error {
	fmt.Fprintf(w, "**decodebench diff**: %s → %s\n\n", cellCode(d.Old), cellCode(d.New))
	if len(d.Conditions) == 0 {
		fmt.Fprintln(w, "Conditions: the same machine, engine, model files, decodebench, scenario and gates.")
	} else {
		fmt.Fprintln(w, "**Conditions that differ** (the comparison may be suspect):")
		fmt.Fprintln(w)
		fmt.Fprintln(w, "| | old | new |")
		fmt.Fprintln(w, "|---|---|---|")
		for _, c := range d.Conditions {
			fmt.Fprintf(w, "| %s | %s | %s |\n", cellText(c.What), cellCode(c.Old), cellCode(c.New))
		}
	}
	fmt.Fprintln(w)
	if len(d.Refused) > 0 {
		for _, r := range d.Refused {
			fmt.Fprintln(w, "**Refused:** "+cellText(r)+".")
		}
		return nil
	}
	fmt.Fprintf(w, "New against old (%s):\n\n", cellText(d.testText()))
	fmt.Fprintln(w, "| arm | metric | old | new | change [interval] | p | |")
	fmt.Fprintln(w, "|---|---|---:|---:|---|---:|---|")
	for _, m := range d.Metrics {
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s |\n", cellCode(m.Arm), cellCode(m.Metric), median(m.OldMedian, m.OldN, cellText(m.Unit)), median(m.NewMedian, m.NewN, cellText(m.Unit)), change(m.Change, m.Lo, m.Hi, m.Verdict), pval(m.P, m.Verdict), bold(m.Verdict))
	}
	if len(d.Ratios) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintf(w, "Each arm's ratio to its own baseline, of medians (not the records' round-by-round ratio; it survives a change of machine; %s):\n", d.familyText())
		fmt.Fprintln(w)
		fmt.Fprintln(w, "| arm / baseline | metric | old ratio | new ratio | change [interval] | p | |")
		fmt.Fprintln(w, "|---|---|---:|---:|---|---:|---|")
		for _, r := range d.Ratios {
			fmt.Fprintf(w, "| %s / %s | %s | %s | %s | %s | %s | %s |\n", cellCode(r.Arm), cellCode(r.Baseline), cellCode(r.Metric), ratio(r.Old), ratio(r.New), change(r.Change, r.Lo, r.Hi, r.Verdict), pval(r.P, r.Verdict), bold(r.Verdict))
		}
	}
	return nil
}

// testText states the one test behind each metric's change, interval and
// p, and what "~" means.
func (d Diff) testText() string {
	same := "~: no significant difference"
	if d.Threshold > 0 {
		same += ", or below " + pct.Exact(d.Threshold)
	}
	if d.Alpha <= 0 {
		return same
	}
	return pct.Sig(1-d.Alpha, 4) + " interval and p from one percentile bootstrap of the ratio of medians, p < " +
		strconv.FormatFloat(d.Alpha, 'g', 4, 64) + " exactly when the interval excludes no change; " + same
}

// familyText states the family-wise error control of the ratios.
func (d Diff) familyText() string {
	f := d.Family
	if f == nil {
		return "no ratios"
	}
	return fmt.Sprintf("family-wise alpha %s over the %d arm ratio(s) --fail-on-regression gates on, Bonferroni: each interval at %s, p from the same bootstrap against %s",
		strconv.FormatFloat(f.Alpha, 'g', 4, 64), f.Comparisons, pct.Sig(f.Confidence, 4), strconv.FormatFloat(1-f.Confidence, 'g', 4, 64))
}

func bold(c Change) string {
	if c == Better || c == Worse {
		return "**" + string(c) + "**"
	}
	return string(c)
}

func dash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// median is a median with its unit, the unit already escaped for where it
// goes (a record's unit is its author's text).
func median(v float64, n int, unit string) string {
	if n == 0 {
		return "—"
	}
	return fmt.Sprintf("%.4g %s (n=%d)", v, unit, n)
}

func ratio(v float64) string {
	if v == 0 {
		return "—"
	}
	return fmt.Sprintf("%.4f", v)
}

func change(c, lo, hi float64, v Change) string {
	if v == Unknown || v == NotFound {
		return "—"
	}
	s := pct.Signed(c, 1)
	if lo != 0 || hi != 0 {
		s += " [" + pct.Signed(lo, 1) + ", " + pct.Signed(hi, 1) + "]"
	}
	return s
}

func pval(p float64, v Change) string {
	if v == Unknown || v == NotFound {
		return "—"
	}
	if p < 0.001 {
		return "<0.001"
	}
	return strconv.FormatFloat(p, 'g', 2, 64)
}

// cellText keeps a value on one line inside a table cell, every Markdown
// mark escaped (no link, image or HTML can come of it), as the record's
// own cells are.
func cellText(s string) string { return recorder.MarkdownText(s) }

// cellCode is a value as inline code inside a table cell, as the record's
// own are.
func cellCode(s string) string { return recorder.MarkdownCode(s) }
