package plots

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// timeline draws the Timeline's runs, trends and marks.
type timeline struct {
	pts  []point
	arms []string
}

func (t *timeline) byArm() [][]point {
	out := make([][]point, len(t.arms))
	for _, p := range t.pts {
		out[p.arm] = append(out[p.arm], p)
	}
	return out
}

func (t *timeline) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	// Layer 1: one horizontal segment per run, Start to End.
	for _, p := range t.pts {
		y := trY(p.run.Value)
		seg := []vg.Point{{X: trX(p.x0), Y: y}, {X: trX(p.x1), Y: y}}
		c.StrokeLines(draw.LineStyle{Color: ArmColor(p.arm), Width: vg.Points(3)}, c.ClipLinesXY(seg)...)
	}
	// Layer 2: each arm's drift trend, dashed in the arm's colour.
	for i, g := range t.byArm() {
		x0, y0, x1, y1, ok := trendLine(g)
		if !ok {
			continue
		}
		ls := trendStyle
		ls.Color = ArmColor(i)
		c.StrokeLines(ls, c.ClipLinesXY([]vg.Point{{X: trX(x0), Y: trY(y0)}, {X: trX(x1), Y: trY(y1)}})...)
	}
	// Layer 3: markers and marks at each run's midpoint.
	drawPoints(&c, t.pts, func(p point) vg.Point {
		return vg.Point{X: trX((p.x0 + p.x1) / 2), Y: trY(p.run.Value)}
	})
}

// Timeline plots the primary metric per run against time since the
// campaign's first run, one colour (and marker shape) per arm. Each run is a
// horizontal segment from its start to its end at its value, with a marker in
// the middle; gaps between segments are the cooldowns. A dashed line per arm
// (of at least 3 runs) is its Theil–Sen trend of value on time, the drift;
// outliers are ringed and contended runs boxed.
func Timeline(runs []Run, s Spec) (*plot.Plot, error) {
	all, arms := prepare(runs, s)
	var pts []point
	for _, p := range all {
		if p.hasT {
			pts = append(pts, p)
		}
	}
	if len(pts) == 0 {
		if len(all) > 0 {
			return nil, noRunsErr(runs, "with a finite value has a start time")
		}
		return nil, noRunsErr(runs, "with a finite value")
	}
	p := newPlot(
		fmt.Sprintf("%s per run%s — order and drift trend", metricName(s), unitSuffix(s)),
		"time since first run started (s)",
		metricName(s)+unitSuffix(s),
	)
	xlo, xhi := math.Inf(1), math.Inf(-1)
	ylo, yhi := math.Inf(1), math.Inf(-1)
	for _, q := range pts {
		xlo, xhi = math.Min(xlo, q.x0), math.Max(xhi, q.x1)
		ylo, yhi = math.Min(ylo, q.run.Value), math.Max(yhi, q.run.Value)
	}
	xlo = math.Min(xlo, 0)
	p.X.Min, p.X.Max = padRange(xlo, xhi, 0.02)
	p.Y.Min, p.Y.Max = padRange(ylo, yhi, 0.12)
	noteAxisOrigin(p)

	tl := &timeline{pts: pts, arms: arms}
	p.Add(hgrid(), tl)

	// Legend: arms with data, in arm order; the trend if one is drawn; an
	// entry for each mark that occurs.
	var entries []hentry
	trend := false
	for i, g := range tl.byArm() {
		if len(g) == 0 {
			continue
		}
		_, _, _, _, ok := trendLine(g)
		trend = trend || ok
		ls := draw.LineStyle{Color: ArmColor(i), Width: vg.Points(3)}
		name := shortName(arms[i], legendNameLen)
		if arms[i] == s.Baseline && s.Baseline != "" {
			name += " (baseline)"
		}
		entries = append(entries, hentry{name, thumb{line: &ls, marker: true, shape: armShape(i), color: ArmColor(i)}})
	}
	if trend {
		entries = append(entries, hentry{trendLabel, thumb{line: &trendStyle}})
	}
	addLegend(p, append(entries, markEntries(pts)...))
	return p, nil
}
