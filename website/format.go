package website

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/decodebench/decodebench/internal/abbrev"
	"github.com/decodebench/decodebench/review"
	"github.com/decodebench/decodebench/schema"
)

// armRatio is one arm of a headline as a page shows it: the ratio and
// its interval with three decimals, as the index writes them, and the
// values themselves in data attributes for a reader's tools.
type armRatio struct {
	Arm                string
	Ratio, Lo, Hi      string
	RawRatio, RawLo    string
	RawHi              string
	HasInterval, NotSg bool
}

// headline is a record's headline as the pages show it: none for a
// record that fails check (review.FleetRecord.ShownHeadline).
func headline(r review.FleetRecord) []armRatio {
	var out []armRatio
	for _, v := range r.ShownHeadline() {
		c := v.Comparison
		a := armRatio{Arm: v.Arm, Ratio: fmt.Sprintf("%.3f", c.Ratio), RawRatio: raw(c.Ratio), HasInterval: c.HasInterval(), NotSg: !c.Significant}
		if a.HasInterval {
			a.Lo, a.Hi = fmt.Sprintf("%.3f", c.Lo), fmt.Sprintf("%.3f", c.Hi)
			a.RawLo, a.RawHi = raw(c.Lo), raw(c.Hi)
		}
		out = append(out, a)
	}
	return out
}

// raw is a number as JSON writes it: the shortest text that reads back
// as the same float64.
func raw(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// verdictView is a verdict with the terms it holds on (review.VerdictTerms)
// and the class that draws its marker.
type verdictView struct {
	Verdict, Class, Terms string
}

// verdictOf is a record's verdict as the pages show it:
// review.FailsCheck, with the class of no verdict, for a record that
// fails check (review.FleetRecord.ShownVerdict).
func verdictOf(r review.FleetRecord) verdictView {
	if !r.Checked() {
		return verdictView{Verdict: review.FailsCheck, Class: verdictClass("")}
	}
	return verdictView{Verdict: string(r.Rec.Verdict), Class: verdictClass(r.Rec.Verdict), Terms: strings.Join(r.ShownTerms(), "; ")}
}

// verdictClass draws a verdict's marker: VALID filled, INCONCLUSIVE and
// UNVERIFIED hollow, REJECTED a cross, FAILED and INCOMPLETE a dash.
func verdictClass(v schema.Verdict) string {
	switch v {
	case schema.Valid:
		return "v-valid"
	case schema.Inconclusive, schema.Unverified:
		return "v-hollow"
	case schema.Rejected:
		return "v-rejected"
	}
	return "v-none"
}

// problemsView is what check found in a record, as the index says it.
type problemsView struct {
	Text string
	Bad  bool
	All  []string
}

func problemsOf(ps []review.Problem) problemsView {
	switch len(ps) {
	case 0:
		return problemsView{Text: "none"}
	case 1:
		return problemsView{Text: visibleFormat(abbrev.FirstLine(ps[0].String())), Bad: true, All: []string{visibleLines(ps[0].String())}}
	}
	v := problemsView{Text: fmt.Sprintf("%d, first: %s", len(ps), visibleFormat(abbrev.FirstLine(ps[0].String()))), Bad: true}
	for _, p := range ps {
		v.All = append(v.All, visibleLines(p.String()))
	}
	return v
}

// shortHash is a hash or commit's first twelve characters.
func shortHash(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}

// recordRef is a link to a record's page, with its date.
type recordRef struct {
	Stem, Href, Date string
}

// fmtP is a step's p-value as the index writes it.
func fmtP(p float64) string { return fmt.Sprintf("%.2g", p) }
