package plots

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// TrendPoint is one record's headline ratio on its date.
type TrendPoint struct {
	Date     time.Time
	Hardware string
	Ratio    float64
	Lo, Hi   float64 // the ratio's interval; both 0 when none
}

// Trend draws a feature's headline ratio against date, one line per
// hardware slug, with each record's interval as an error bar and the line
// of no change at 1. The drawing depends only on the points, so the same
// records give the same bytes.
func Trend(feature, metric string, points []TrendPoint) (*plot.Plot, error) {
	if len(points) == 0 {
		return nil, fmt.Errorf("%w: no records with a ratio", ErrNoPlottableRuns)
	}
	p := newPlot(fmt.Sprintf("%s: ratio to baseline over time", feature), "record date", metric+" ratio (arm / baseline)")
	p.X.Tick.Marker = plot.TimeTicks{Format: "2006-01-02"}
	byHW := map[string][]TrendPoint{}
	for _, pt := range points {
		byHW[pt.Hardware] = append(byHW[pt.Hardware], pt)
	}
	hws := slices.Sorted(maps.Keys(byHW))
	minX, maxX := float64(points[0].Date.Unix()), float64(points[0].Date.Unix())
	for i, hw := range hws {
		pts := byHW[hw]
		slices.SortStableFunc(pts, func(a, b TrendPoint) int { return a.Date.Compare(b.Date) })
		xy := make(plotter.XYs, len(pts))
		var errs plotter.YErrors
		for j, pt := range pts {
			x := float64(pt.Date.Unix())
			minX, maxX = min(minX, x), max(maxX, x)
			xy[j] = plotter.XY{X: x, Y: pt.Ratio}
			lo, hi := 0.0, 0.0
			if pt.Lo != 0 || pt.Hi != 0 {
				lo, hi = pt.Ratio-pt.Lo, pt.Hi-pt.Ratio
			}
			errs = append(errs, struct{ Low, High float64 }{lo, hi})
		}
		line, scatter, err := plotter.NewLinePoints(xy)
		if err != nil {
			return nil, err
		}
		clr := ArmColor(i)
		line.Color, scatter.Color = clr, clr
		line.Width = vg.Points(1.2)
		scatter.Shape = draw.CircleGlyph{}
		scatter.Radius = vg.Points(3)
		bars, err := plotter.NewYErrorBars(struct {
			plotter.XYer
			plotter.YErrorer
		}{xy, errs})
		if err != nil {
			return nil, err
		}
		bars.Color = clr
		p.Add(line, scatter, bars)
		p.Legend.Add(hw, line, scatter)
	}
	one := plotter.NewFunction(func(float64) float64 { return 1 })
	one.Color = axisColor
	one.Dashes = []vg.Length{vg.Points(3), vg.Points(3)}
	p.Add(one)
	pad := max((maxX-minX)*0.05, 86400)
	p.X.Min, p.X.Max = minX-pad, maxX+pad
	p.Legend.Top = true
	return p, nil
}
