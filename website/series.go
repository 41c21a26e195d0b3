package website

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/history"
	"github.com/decodebench/decodebench/review"
	"github.com/decodebench/decodebench/schema"
)

// seriesPlots draws series number si of a feature's page (its place in
// the page's history data): the baseline's own median of the primary
// metric, then every arm's ratio to it, each with its intervals and
// steps; the hardware's REJECTED records of the same scenario that pass
// check (review.FleetRecord.Counts) are crosses at the foot of the
// ratios' plot. recs are the hardware's
// records; data collects what the page's script reads of the plots.
func seriesPlots(si int, s history.Series, recs []review.FleetRecord, n *names, data *plotsData) seriesView {
	v := seriesView{Hash: s.ScenarioHash, ShortHash: shortHash(s.ScenarioHash), Records: len(s.Records)}
	var rejected []review.FleetRecord
	for _, r := range recs {
		if r.Counts() && r.Rec.Verdict == schema.Rejected && r.Rec.Scenario.Hash == s.ScenarioHash {
			rejected = append(rejected, r)
		}
	}
	xs, x0, x1 := places(s, recs, rejected)
	if len(s.Metrics) > 0 && len(s.Metrics[0].Points) > 0 {
		pts := s.Metrics[0].Points
		v.First, v.Last = pts[0].Date, pts[len(pts)-1].Date
	}
	base := plotSpec{ID: fmt.Sprintf("plot-%d-base", si), Ref: math.NaN(), X0: x0, X1: x1}
	ratio := plotSpec{ID: fmt.Sprintf("plot-%d-ratio", si), Ref: 1, X0: x0, X1: x1}
	var baseLegend, ratioLegend []legendItem
	for mi, m := range s.Metrics {
		spec, legend, color := &ratio, &ratioLegend, 1+len(ratioLegend)
		if m.Kind == history.KindBaseline {
			spec, legend, color = &base, &baseLegend, 0
			spec.YLabel = strings.TrimSpace(m.Name + " " + unitText(m.Unit))
			spec.Label = m.Arm + "'s median " + m.Name + " by date"
		} else {
			spec.YLabel = "ratio to " + m.Baseline
			spec.Label = "each arm's ratio to " + m.Baseline + " on " + m.Name + ", as its verdict states it, by date"
		}
		line := plotLine{Name: review.MetricLabel(m), Color: color}
		for i, p := range m.Points {
			line.Points = append(line.Points, plotPoint{X: xs[p.Stem], Y: p.Value, Lo: p.Lo, Hi: p.Hi, HasInterval: p.Lo != 0 || p.Hi != 0,
				Verdict: p.Verdict, Ref: fmt.Sprintf("%d.%d.%d", si, mi, i)})
			data.page(n, p.Stem)
		}
		for _, st := range m.Steps {
			spec.Steps = append(spec.Steps, plotStep{X: xs[st.First.Stem], Color: color, Text: review.StepText(st.Step, st.Worse)})
		}
		spec.Lines = append(spec.Lines, line)
		*legend = append(*legend, legendItem{Name: line.Name, Color: color})
	}
	target := &ratio
	if len(ratio.Lines) == 0 {
		target = &base
	}
	for _, r := range rejected {
		target.Rejected = append(target.Rejected, plotPoint{X: xs[r.Stem], Verdict: r.Rec.Verdict, Ref: fmt.Sprintf("x.%d", len(data.Marked))})
		data.Marked = append(data.Marked, markedRecord{Stem: r.Stem, Date: r.Rec.Date, Verdict: r.Rec.Verdict,
			EngineVersion: visibleFormat(firstLine(r.Rec.Engine.Version)), SourceCommit: visibleFormat(r.Rec.Engine.SourceCommit)})
		data.page(n, r.Stem)
	}
	for _, spec := range []struct {
		p      plotSpec
		legend []legendItem
	}{{base, baseLegend}, {ratio, ratioLegend}} {
		if len(spec.p.Lines) == 0 {
			continue
		}
		svg, pd := svgPlot(spec.p)
		data.Plots[spec.p.ID] = pd
		v.Plots = append(v.Plots, plotView{Title: spec.p.Label, SVG: svg, Legend: spec.legend})
	}
	return v
}

// plotsData is what a feature page's script reads of its plots: where
// each plot's points stand, the records the plots mark without a value
// (REJECTED), and the pages of the records whose page is not named
// after them (names).
type plotsData struct {
	Marked []markedRecord      `json:"marked"`
	Pages  map[string]string   `json:"pages"`
	Plots  map[string]plotData `json:"plots"`
}

// page notes a record's page when it is not r/STEM.html.
func (d *plotsData) page(n *names, stem string) {
	if p := n.stemPage(stem); p != recordDir+"/"+stem+".html" {
		d.Pages[stem] = p
	}
}

// places puts every record of a series (and the REJECTED ones beside it)
// on the x axis: its date, in days, and its place among the records of
// that date (by -N suffix), spread across the day. It returns the
// places by stem and the days the axis spans.
func places(s history.Series, recs, rejected []review.FleetRecord) (map[string]float64, float64, float64) {
	seq := map[string]int{}
	for _, r := range recs {
		seq[r.Stem] = r.Seq
	}
	type rec struct {
		stem, date string
		seq        int
	}
	var all []rec
	for _, m := range s.Metrics {
		for _, p := range m.Points {
			all = append(all, rec{p.Stem, p.Date, seq[p.Stem]})
		}
	}
	for _, r := range rejected {
		all = append(all, rec{r.Stem, r.Rec.Date, r.Seq})
	}
	slices.SortFunc(all, func(a, b rec) int {
		if a.date != b.date {
			return strings.Compare(a.date, b.date)
		}
		if a.seq != b.seq {
			return a.seq - b.seq
		}
		return strings.Compare(a.stem, b.stem)
	})
	all = slices.CompactFunc(all, func(a, b rec) bool { return a.stem == b.stem })
	out := map[string]float64{}
	x0, x1 := math.Inf(1), math.Inf(-1)
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].date == all[i].date {
			j++
		}
		day, _ := dayNumber(all[i].date)
		for k := i; k < j; k++ {
			out[all[k].stem] = day + (float64(k-i)+0.5)/float64(j-i)
		}
		x0, x1 = min(x0, day), max(x1, day+1)
		i = j
	}
	if math.IsInf(x0, 0) {
		x0, x1 = 0, 1
	}
	return out, x0, x1
}

func unitText(u string) string {
	if u == "" {
		return ""
	}
	return "(" + u + ")"
}

func firstLine(s string) string {
	v, _, _ := strings.Cut(s, "\n")
	return v
}
