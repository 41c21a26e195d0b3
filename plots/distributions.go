package plots

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"github.com/decodebench/decodebench/stats"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// armStats is the box of one arm.
type armStats struct {
	n              int
	q1, median, q3 float64
}

// statsOf returns the box of an arm's (finite) values.
func statsOf(vals []float64) armStats {
	s := stats.Summarize(vals)
	return armStats{n: s.N, q1: s.Q1, median: s.Median, q3: s.Q3}
}

// jitter returns a deterministic offset in [-0.5, 0.5) for the k-th point
// of an arm (golden-ratio sequence: well spread, no randomness).
func jitter(k int) float64 {
	const phi = 0.6180339887498949
	f := math.Mod(0.5+float64(k)*phi, 1)
	return f - 0.5
}

const (
	boxHalf    = 0.22 // half box width, in arm-slot units
	jitterHalf = 0.16 // half jitter width
)

// distributions draws the Distributions' boxes, baseline and points.
type distributions struct {
	pts      []point
	stats    []armStats
	baseline float64 // NaN: none
}

func (d *distributions) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	// Boxes first (light fill, arm-coloured outline and median).
	for i, st := range d.stats {
		if st.n == 0 {
			continue
		}
		col := ArmColor(i)
		x0, x1 := trX(float64(i)-boxHalf), trX(float64(i)+boxHalf)
		y0, y1 := trY(st.q1), trY(st.q3)
		fill := color.NRGBA{col.R, col.G, col.B, 0x2E}
		box := []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
		c.FillPolygon(fill, c.ClipPolygonXY(box))
		outline := draw.LineStyle{Color: col, Width: vg.Points(1.2)}
		c.StrokeLines(outline, c.ClipLinesXY(append(box, box[0]))...)
		ym := trY(st.median)
		c.StrokeLines(draw.LineStyle{Color: col, Width: vg.Points(3)},
			c.ClipLinesXY([]vg.Point{{X: x0, Y: ym}, {X: x1, Y: ym}})...)
	}
	// Baseline median: across the whole data area, over the boxes (see
	// drawReference), labelled in the right margin (outside the data, so it
	// never covers points).
	if stats.Finite(d.baseline) {
		y := trY(d.baseline)
		drawReference(c, y)
		c.FillText(refStyle(plt), vg.Point{X: c.Max.X + vg.Points(5), Y: y}, baselineLabel)
	}
	// Points on top, then the outlier and contention marks.
	drawPoints(&c, d.pts, func(p point) vg.Point { return vg.Point{X: trX(p.xj), Y: trY(p.run.Value)} })
}

const baselineLabel = "baseline median"

// Distributions draws, per arm, the runs' values as jittered points over a
// box spanning the quartiles with a thick median line; arms are on the x axis
// (labelled with name, run count and the arm's Spec.Annotations text), the
// baseline median is a dashed horizontal line labelled "baseline median",
// drawn over the boxes. Outliers are ringed and contended runs boxed.
func Distributions(runs []Run, s Spec) (*plot.Plot, error) {
	pts, arms := prepare(runs, s)
	if len(pts) == 0 {
		return nil, noRunsErr(runs, "with a finite value")
	}
	vals := make([][]float64, len(arms))
	for i := range pts {
		a := pts[i].arm
		pts[i].xj = float64(a) + 2*jitterHalf*jitter(len(vals[a]))
		vals[a] = append(vals[a], pts[i].run.Value)
	}
	st := make([]armStats, len(arms))
	for i, v := range vals {
		st[i] = statsOf(v)
	}
	// Baseline median: as given; computed from the baseline arm's runs when
	// not given (NaN/Inf/zero) and Baseline names an arm; none when neither.
	base := s.BaselineMedian
	if !stats.Finite(base) || base == 0 {
		base = math.NaN()
		for i, a := range arms {
			if a == s.Baseline && st[i].n > 0 {
				base = st[i].median
			}
		}
	}

	p := newPlot(
		fmt.Sprintf("%s by arm%s", metricName(s), unitSuffix(s)),
		"",
		metricName(s)+unitSuffix(s),
	)
	ylo, yhi := math.Inf(1), math.Inf(-1)
	for _, q := range pts {
		ylo, yhi = math.Min(ylo, q.run.Value), math.Max(yhi, q.run.Value)
	}
	if stats.Finite(base) {
		ylo, yhi = math.Min(ylo, base), math.Max(yhi, base)
	}
	p.Y.Min, p.Y.Max = padRange(ylo, yhi, 0.12)
	noteAxisOrigin(p)
	p.X.Min, p.X.Max = -0.5, float64(len(arms))-0.5

	// Arm labels: name (shortened to fit its slot), run count, a line
	// marking the baseline arm, and the arm's annotation wrapped to the slot.
	slot := (Width - vg.Points(100)) / vg.Length(len(arms))
	maxChars := min(int(slot/(0.56*p.X.Tick.Label.Font.Size)), 28)
	ticks := make([]plot.Tick, len(arms))
	for i, a := range arms {
		lbl := shortName(a, maxChars) + "\n" + fmt.Sprintf("n=%d", st[i].n)
		if st[i].n == 0 {
			lbl = shortName(a, maxChars) + "\nno valid runs"
		}
		if a == s.Baseline && s.Baseline != "" {
			lbl += "\n(baseline)"
		}
		for _, an := range s.Annotations {
			for _, note := range strings.Split(an.Text, "\n") {
				if an.Arm == a && note != "" {
					lbl += "\n" + wrapText(note, p.X.Tick.Label.Font, slot-vg.Points(6))
				}
			}
		}
		ticks[i] = plot.Tick{Value: float64(i), Label: lbl}
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Tick.Length = 0

	p.Add(hgrid(), &distributions{pts: pts, stats: st, baseline: base})
	addLegend(p, markEntries(pts))
	if stats.Finite(base) {
		p.Add(margin{right: refStyle(p).Width(baselineLabel) + vg.Points(10)})
	}
	return p, nil
}
