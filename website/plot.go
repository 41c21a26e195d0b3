package website

import (
	"fmt"
	"html"
	"html/template"
	"math"
	"strings"

	"github.com/decodebench/decodebench/schema"
)

// plotPoint is one record's mark in a plot.
type plotPoint struct {
	X           float64 // in days, the record's place within its date
	Y, Lo, Hi   float64
	HasInterval bool
	Verdict     schema.Verdict
	// Ref says which datum it is, for the page's script: "s.m.i" (series,
	// metric and point of the history data), "x.k" (a REJECTED record).
	Ref string
}

// plotLine is one metric's points, oldest first, in the colour of its
// arm (Color, an index into the site's palette).
type plotLine struct {
	Name   string
	Color  int
	Points []plotPoint
}

// plotStep is a step found in a line: a dashed line at the first record
// after it.
type plotStep struct {
	X     float64
	Color int
	Text  string
}

// plotSpec is everything a plot draws.
type plotSpec struct {
	ID     string // the svg element's id
	Label  string // what it shows, for a screen reader
	YLabel string
	Ref    float64 // a reference line (1 for a ratio); NaN for none
	X0, X1 float64 // the days shown
	Lines  []plotLine
	// Rejected are REJECTED records, which have no value: crosses at the
	// foot of the plot.
	Rejected []plotPoint
	Steps    []plotStep
}

// markerClass is a point's class: filled for VALID, hollow for
// INCONCLUSIVE and UNVERIFIED.
func markerClass(v schema.Verdict) string {
	if v == schema.Valid {
		return "f"
	}
	return "h"
}

// plotData is where a plot's points stand, for the page's script, which
// finds the point nearest the mouse or moves between them with the
// arrow keys: X and Y in the SVG's units, Ref what each point is
// (plotPoint.Ref), in drawing order.
type plotData struct {
	X   []float64 `json:"x"`
	Y   []float64 `json:"y"`
	Ref []string  `json:"ref"`
}

// svgPlot draws a plot as inline SVG: a line's intervals are one path,
// its markers another (each a dot: a zero-length stroke with round
// caps, far cheaper to paint than arcs), the holes of the hollow ones a
// third, the REJECTED crosses one more, so that ten thousand records
// stay a few elements that paint fast.
// Every text is escaped. The points' places come back for the page's
// script.
func svgPlot(p plotSpec) (template.HTML, plotData) {
	var values, los, his []float64
	for _, l := range p.Lines {
		for _, pt := range l.Points {
			values = append(values, pt.Y)
			if pt.HasInterval {
				los, his = append(los, pt.Lo), append(his, pt.Hi)
			}
		}
	}
	lo, hi := yRange(values, los, his, p.Ref)
	xs := scale{p.X0, p.X1, marginL, marginL + innerW}
	ys := scale{lo, hi, marginT + innerH, marginT}
	var b strings.Builder
	var data plotData
	fmt.Fprintf(&b, `<svg id="%s" class="plot" viewBox="0 0 %g %g" tabindex="0" role="group" aria-label="%s">`,
		esc(p.ID), plotW, plotH, esc(p.Label+" (arrow keys move between records, Enter opens one)"))
	axes(&b, xs, ys, p.YLabel)
	if !math.IsNaN(p.Ref) && p.Ref >= lo && p.Ref <= hi {
		fmt.Fprintf(&b, `<line class="ref" x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f"/>`, marginL, marginL+innerW, ys.at(p.Ref), ys.at(p.Ref))
	}
	for _, st := range p.Steps {
		x := xs.at(st.X)
		fmt.Fprintf(&b, `<line class="step c%d" x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f"/>`, st.Color, x, x, marginT, marginT+innerH)
		fmt.Fprintf(&b, `<text class="steptext c%d" x="%.1f" y="%.1f">%s</text>`, st.Color, x+3, marginT+10, esc(st.Text))
	}
	for _, l := range p.Lines {
		intervals(&b, l, xs, ys)
		r := markerR
		if len(l.Points) > denseAbove {
			r = denseMarkerR
		}
		var all, holes strings.Builder
		for _, pt := range l.Points {
			x, y := round1(xs.at(pt.X)), round1(ys.at(ys.clamp(pt.Y)))
			fmt.Fprintf(&all, "M%.1f %.1fh0", x, y)
			if markerClass(pt.Verdict) == "h" {
				fmt.Fprintf(&holes, "M%.1f %.1fh0", x, y)
			}
			data.add(x, y, pt.Ref)
		}
		if all.Len() > 0 {
			fmt.Fprintf(&b, `<path class="mk c%d" stroke-width="%g" d="%s"/>`, l.Color, 2*r, all.String())
		}
		if holes.Len() > 0 {
			fmt.Fprintf(&b, `<path class="mk hole" stroke-width="%g" d="%s"/>`, 2*r-3, holes.String())
		}
	}
	if len(p.Rejected) > 0 {
		var d strings.Builder
		for _, pt := range p.Rejected {
			x, y := round1(xs.at(pt.X)), round1(marginT+innerH-6)
			fmt.Fprintf(&d, "M%.1f %.1fl7 7m0-7l-7 7", x-3.5, y-3.5)
			data.add(x, y, pt.Ref)
		}
		fmt.Fprintf(&b, `<path class="mk x" d="%s"/>`, d.String())
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String()), data
}

func (d *plotData) add(x, y float64, ref string) {
	d.X, d.Y, d.Ref = append(d.X, x), append(d.Y, y), append(d.Ref, ref)
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }

// intervals draws a line's intervals, each clipped to the plot: one bar
// a point, as one path; past denseAbove points, where bars would merge,
// the band between their ends instead.
func intervals(b *strings.Builder, l plotLine, xs, ys scale) {
	var with []plotPoint
	for _, pt := range l.Points {
		if pt.HasInterval {
			with = append(with, pt)
		}
	}
	if len(with) == 0 {
		return
	}
	var d strings.Builder
	if len(l.Points) <= denseAbove {
		for _, pt := range with {
			fmt.Fprintf(&d, "M%.1f %.1fV%.1f", xs.at(pt.X), ys.at(ys.clamp(pt.Lo)), ys.at(ys.clamp(pt.Hi)))
		}
		fmt.Fprintf(b, `<path class="iv c%d" d="%s"/>`, l.Color, d.String())
		return
	}
	for i, pt := range with {
		op := "L"
		if i == 0 {
			op = "M"
		}
		fmt.Fprintf(&d, "%s%.1f %.1f", op, xs.at(pt.X), ys.at(ys.clamp(pt.Hi)))
	}
	for i := len(with) - 1; i >= 0; i-- {
		fmt.Fprintf(&d, "L%.1f %.1f", xs.at(with[i].X), ys.at(ys.clamp(with[i].Lo)))
	}
	fmt.Fprintf(b, `<path class="band c%d" d="%sZ"/>`, l.Color, d.String())
}

// axes draws the frame, the y ticks with their grid lines and the
// labelled days.
func axes(b *strings.Builder, xs, ys scale, ylabel string) {
	fmt.Fprintf(b, `<rect class="frame" x="%.1f" y="%.1f" width="%.1f" height="%.1f"/>`, marginL, marginT, innerW, innerH)
	ticks, dec := yTicks(ys.d0, ys.d1)
	for _, v := range ticks {
		y := ys.at(v)
		fmt.Fprintf(b, `<line class="grid" x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f"/>`, marginL, marginL+innerW, y, y)
		fmt.Fprintf(b, `<text class="tick" x="%.1f" y="%.1f" text-anchor="end">%s</text>`, marginL-6, y+4, tickText(v, dec))
	}
	for _, d := range dayTicks(xs.d0, xs.d1) {
		x := xs.at(d + 0.5)
		fmt.Fprintf(b, `<line class="grid" x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f"/>`, x, x, marginT, marginT+innerH)
		fmt.Fprintf(b, `<text class="tick" x="%.1f" y="%.1f" text-anchor="middle">%s</text>`, x, plotH-8, dayText(d))
	}
	fmt.Fprintf(b, `<text class="ylabel" x="12" y="%.1f" transform="rotate(-90 12 %.1f)" text-anchor="middle">%s</text>`,
		marginT+innerH/2, marginT+innerH/2, esc(ylabel))
}

// sparkSVG is a small trend of xs, oldest first: one line, scaled to its
// range; a long history is drawn as the range of each column.
func sparkSVG(xs []float64) template.HTML {
	if len(xs) < 2 {
		return ""
	}
	lo, hi := xs[0], xs[0]
	for _, x := range xs {
		lo, hi = min(lo, x), max(hi, x)
	}
	ys := scale{lo, hi, sparkH - sparkPad, sparkPad}
	var d strings.Builder
	if len(xs) <= 2*sparkCols {
		step := (sparkW - 2*sparkPad) / float64(len(xs)-1)
		for i, x := range xs {
			op := "L"
			if i == 0 {
				op = "M"
			}
			fmt.Fprintf(&d, "%s%.1f %.1f", op, sparkPad+float64(i)*step, ys.at(x))
		}
	} else {
		step := (sparkW - 2*sparkPad) / float64(sparkCols-1)
		for c := range sparkCols {
			part := xs[c*len(xs)/sparkCols : (c+1)*len(xs)/sparkCols]
			cl, ch := part[0], part[0]
			for _, x := range part {
				cl, ch = min(cl, x), max(ch, x)
			}
			op := "L"
			if c == 0 {
				op = "M"
			}
			x := sparkPad + float64(c)*step
			fmt.Fprintf(&d, "%s%.1f %.1fL%.1f %.1f", op, x, ys.at(cl), x, ys.at(ch))
		}
	}
	return template.HTML(fmt.Sprintf(`<svg class="spark" viewBox="0 0 %g %g" role="img" aria-label="trend of the first arm's ratio, oldest to newest"><path d="%s"/></svg>`,
		sparkW, sparkH, d.String()))
}

func esc(s string) string { return html.EscapeString(s) }
