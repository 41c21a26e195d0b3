package review

import (
	"fmt"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/history"
	"github.com/decodebench/decodebench/internal/pct"
	"github.com/decodebench/decodebench/schema"
)

// RegimeMarkdown writes a feature's regime tables (history.Regimes): one
// table per scenario, one row per hardware, and under each whether its
// result holds across the hardware or depends on the regime. link, when
// not nil, is the link target of a record (the feature page links them);
// without it records are named.
func RegimeMarkdown(tables []history.RegimeTable, link func(stem string) string) string {
	var b strings.Builder
	for _, t := range tables {
		fmt.Fprintf(&b, "### Scenario %s: each arm's %s against %s\n\n", cellCode(short(t.ScenarioHash)), cellCode(t.Metric), cellCode(t.Baseline))
		b.WriteString("| hardware | record | verdict | GPU | power mode | engine |")
		for _, a := range t.Arms {
			fmt.Fprintf(&b, " %s |", cellCode(a))
		}
		b.WriteString(" roofline share |\n|---|---|---|---|---|---|" + strings.Repeat("---|", len(t.Arms)) + "---|\n")
		for _, r := range t.Rows {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |", cellCode(r.Hardware), regimeRecord(r, link), regimeVerdict(r), gpuCell(r),
				cellText(dashIfEmpty(r.PowerMode)), cellText(dashIfEmpty(r.Engine)))
			for _, a := range t.Arms {
				fmt.Fprintf(&b, " %s |", regimeArm(r, a))
			}
			fmt.Fprintf(&b, " %s |\n", rooflineCell(r))
		}
		b.WriteString("\n" + regimeConclusion(t) + "\n\n")
	}
	return b.String()
}

func regimeRecord(r history.RegimeRow, link func(string) string) string {
	if r.Record == "" {
		return "—"
	}
	if link == nil {
		return cellCode(r.Record)
	}
	return fmt.Sprintf("[%s](%s)", cellText(r.Record), link(r.Record))
}

func regimeVerdict(r history.RegimeRow) string {
	if r.Record == "" {
		return cellText(fmt.Sprintf("no VALID record (latest: %s, %s)", r.Verdict, r.Newer.Record))
	}
	s := string(r.Verdict)
	if r.Newer != nil {
		s += fmt.Sprintf("; newer: %s (%s)", r.Newer.Verdict, r.Newer.Record)
	}
	return cellText(s)
}

// gpuCell is the row's GPU and its generation where known; a machine with
// none shows its CPU.
func gpuCell(r history.RegimeRow) string {
	if r.GPU == "" {
		if r.CPU == "" {
			return "—"
		}
		return cellText("none (CPU: " + r.CPU + ")")
	}
	s := r.GPU
	var gen []string
	if r.GPUGeneration > 0 {
		gen = append(gen, fmt.Sprintf("GPU generation %d", r.GPUGeneration))
	}
	if r.GPUArchitecture != "" {
		gen = append(gen, r.GPUArchitecture)
	}
	if len(gen) > 0 {
		s += " (" + strings.Join(gen, ", ") + ")"
	}
	return cellText(s)
}

func regimeArm(r history.RegimeRow, arm string) string {
	for _, a := range r.Arms {
		if a.Arm != arm {
			continue
		}
		s := fmt.Sprintf("%.3f×", a.Ratio)
		if a.Lo != 0 || a.Hi != 0 {
			s += fmt.Sprintf(" [%.3f, %.3f]", a.Lo, a.Hi)
		}
		if !a.Significant {
			s += " ~"
		}
		if a.Control {
			s += " (control)"
		}
		return cellText(s)
	}
	return "—"
}

// rooflineCell is each arm's share of the hardware's limit; "—" where the
// record has none.
func rooflineCell(r history.RegimeRow) string {
	if len(r.Roofline) == 0 {
		return "—"
	}
	var parts []string
	for _, x := range r.Roofline {
		parts = append(parts, cellCode(x.Arm)+" "+cellText(ShareText(x, slices.Contains(r.Drafts, x.Arm))))
	}
	return strings.Join(parts, ", ")
}

// ShareText is an arm's roofline share as the regime tables show it:
// "effective" for an arm whose command line drafts (several tokens per
// read of the weights), and for one that does not but passes 100%, why:
// what a token reads fits in the host's last-level cache, or it is past
// the memory's figure (a bandwidth or a size to look at). A record marks
// both kinds effective; the table tells them apart by the arm's command
// line.
func ShareText(x schema.ArmRoofline, drafts bool) string {
	s := pct.Fixed(x.Share, 0)
	switch {
	case drafts:
		return s + " (effective)"
	case x.Share > 1 && x.CacheBytes > 0:
		return s + " (fits in the last-level cache)"
	case x.Share > 1:
		return s + " (past the memory's figure)"
	}
	return s
}

// regimeConclusion says whether the table's result holds across its
// hardware or depends on the regime, naming each pair that differs.
func regimeConclusion(t history.RegimeTable) string {
	valid := 0
	for _, r := range t.Rows {
		if r.Record != "" {
			valid++
		}
	}
	if !t.Dependent {
		if valid < 2 {
			return "Fewer than two hardware have a VALID record of this scenario: nothing to compare across regimes yet."
		}
		return fmt.Sprintf("No regime dependence shown across %d hardware: no arm's intervals on two of them exclude each other by min_effect (%s) or more "+
			"(which does not show that the result is the same on each).", valid, pct.Rounded(t.MinEffect))
	}
	var lines []string
	for _, arm := range t.Arms {
		var sign, size []string
		for _, s := range t.Splits {
			if s.Arm != arm {
				continue
			}
			pair := cellCode(s.HardwareA) + " and " + cellCode(s.HardwareB)
			if s.Kind == history.SplitSign {
				sign = append(sign, pair)
			} else {
				size = append(size, pair)
			}
		}
		var how []string
		if len(sign) > 0 {
			how = append(how, "sign (a gain on one, a loss on the other) between "+strings.Join(sign, ", "))
		}
		if len(size) > 0 {
			how = append(how, "size between "+strings.Join(size, ", "))
		}
		if len(how) == 0 {
			continue
		}
		lines = append(lines, fmt.Sprintf("**Regime-dependent:** %s changes %s: on each pair the intervals exclude each other and the ratios differ by min_effect (%s) or more. Quote it with its hardware.",
			cellCode(arm), strings.Join(how, ", and "), pct.Rounded(t.MinEffect)))
	}
	return strings.Join(lines, "\n\n")
}

func dashIfEmpty(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// regimeSection is a feature page's regime tables, from the records that
// pass check (a record with problems stands for no hardware).
func regimeSection(feature string, es []FleetRecord) string {
	var recs []history.Record
	left, same := 0, 0
	for _, e := range es {
		if len(e.Problems) > 0 {
			left++
			continue
		}
		if e.SameAs != "" {
			same++
			continue
		}
		recs = append(recs, history.Record{Stem: e.Stem, Seq: e.Seq, Rec: e.Rec})
	}
	var b strings.Builder
	b.WriteString("## Regimes\n\n")
	b.WriteString("Per scenario (its hash), one row per hardware: its latest VALID record's ratio of each arm to the baseline with its interval, ")
	b.WriteString("what the hardware was, and the share of its limit where the record measured it. ")
	b.WriteString("A result is regime-dependent where an arm's intervals on two hardware exclude each other and its ratios differ by min_effect or more.")
	if left > 0 {
		fmt.Fprintf(&b, " %d record(s) with problems are left out.", left)
	}
	if same > 0 {
		fmt.Fprintf(&b, " %d record(s) holding the same campaign as another record are left out (counted once).", same)
	}
	b.WriteString("\n\n")
	tables := history.Regimes(recs, feature)
	if len(tables) == 0 {
		b.WriteString("No records without problems.\n\n")
	}
	b.WriteString(RegimeMarkdown(tables, func(stem string) string { return "../" + linkTarget(stem+".md") }))
	return b.String()
}
