package website

import (
	"fmt"
	"html/template"
	"path/filepath"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/review"
)

// topPage is the site's index.html: the index's rows.
type topPage struct {
	page
	Source     string
	Count      int
	HW         []string
	Rows       []topRow
	StepsRule  string
	Bisects    []bisectRow
	Unreadable []unreadableRow
}

// topRow is one feature and hardware (review.FleetRow).
type topRow struct {
	Feature, FeatureHref   string
	Hardware, HardwareHref string
	Latest                 recordRef
	Verdict                verdictView
	Headline               []armRatio
	Trend                  template.HTML // the small trend's SVG, or ""
	TrendText              string
	Records                int
	Steps, StepsHref       string
	Problems               problemsView
}

type bisectRow struct {
	Date, Feature, Name, Href, Result, FirstBad string
	Steps                                       int
	Problems                                    problemsView
}

type unreadableRow struct{ File, Problem string }

func writeTop(o *out, source string, f *review.Fleet, n *names) error {
	p := topPage{page: page{Title: "decodebench records"}, Source: filepath.Base(filepath.Clean(source)), StepsRule: stepsRule()}
	for _, feature := range f.Features {
		p.Count += len(f.Records[feature])
	}
	for _, row := range f.Rows() {
		latest := row.Latest()
		r := topRow{Feature: row.Feature, FeatureHref: n.features[row.Feature], Hardware: row.Hardware,
			HardwareHref: n.features[row.Feature] + "#" + hardwareID(row.Hardware),
			Latest:       recordRef{Stem: visibleFormat(latest.Stem), Href: n.files[latest.File], Date: latest.Rec.Date},
			Verdict:      verdictOf(latest), Headline: headline(latest), Records: len(row.Records),
			Problems: problemsOf(latest.Problems)}
		if k, newer := row.FailingBeside(); k > 0 && newer != "" {
			r.Problems = problemsView{Text: fmt.Sprintf("%d other record(s) fail check, the newest (%s) among them", k, visibleFormat(newer)), Bad: true}
		} else if k > 0 {
			r.Problems = problemsView{Text: fmt.Sprintf("%d older record(s)", k), Bad: true}
		}
		if xs := review.FirstRatios(row.Records); len(xs) >= 2 {
			r.Trend = sparkSVG(xs)
			r.TrendText = fmt.Sprintf("%.3f→%.3f", xs[0], xs[len(xs)-1])
		}
		steps := f.Steps(row.Feature, row.Hardware)
		if latest, ok := review.LatestStep(steps); ok {
			st := latest.Step
			r.Steps = fmt.Sprintf("%d, latest %s: %s %s", len(steps), st.First.Date, review.MetricLabel(latest.Metric), review.StepText(st.Step, st.Worse))
			r.StepsHref = n.features[row.Feature] + "#steps"
		}
		if !slices.Contains(p.HW, row.Hardware) {
			p.HW = append(p.HW, row.Hardware)
		}
		p.Rows = append(p.Rows, r)
	}
	slices.Sort(p.HW)
	for _, b := range f.Bisects {
		s := b.Summary
		result, firstBad := b.ShownResult()
		p.Bisects = append(p.Bisects, bisectRow{Date: s.Date, Feature: s.Feature, Name: visibleFormat(strings.TrimSuffix(b.File, ".md")), Href: n.files[b.File],
			Result: result, FirstBad: visibleFormat(orDash(shortHash(firstBad))), Steps: len(s.Steps), Problems: problemsOf(b.Problems)})
	}
	for _, u := range f.Unreadable {
		p.Unreadable = append(p.Unreadable, unreadableRow{File: visibleFormat(u.File), Problem: visibleFormat(u.Err.Error())})
	}
	return render(o, "index.html", "top", p)
}

// hardwareID is a hardware's section on a feature page; a slug is
// [a-z0-9]+ (recorder.CheckName).
func hardwareID(hw string) string { return "hw-" + hw }

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
