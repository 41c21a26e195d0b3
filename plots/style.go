package plots

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// okabeIto is the Okabe–Ito colour-blind-safe palette, ordered for a white
// background (yellow, the weakest on white, comes last).
var okabeIto = []color.RGBA{
	{0x00, 0x72, 0xB2, 0xFF}, // blue
	{0xE6, 0x9F, 0x00, 0xFF}, // orange
	{0x00, 0x9E, 0x73, 0xFF}, // bluish green
	{0xCC, 0x79, 0xA7, 0xFF}, // reddish purple
	{0xD5, 0x5E, 0x00, 0xFF}, // vermillion
	{0x56, 0xB4, 0xE9, 0xFF}, // sky blue
	{0x00, 0x00, 0x00, 0xFF}, // black
	{0xF0, 0xE4, 0x42, 0xFF}, // yellow
}

// ArmColor is the colour of the i-th arm (in Spec.Arms order); the palette
// repeats after eight arms (the marker shape then differs, see armShape).
func ArmColor(i int) color.RGBA {
	if i < 0 {
		i = -i
	}
	return okabeIto[i%len(okabeIto)]
}

var (
	textColor  = color.RGBA{0x1A, 0x1A, 0x1A, 0xFF}
	axisColor  = color.RGBA{0x33, 0x33, 0x33, 0xFF}
	gridColor  = color.RGBA{0xE3, 0xE3, 0xE3, 0xFF}
	ringColor  = color.RGBA{0x1A, 0x1A, 0x1A, 0xFF}
	refColor   = color.RGBA{0x44, 0x44, 0x44, 0xFF}
	sansFont   = font.Font{Typeface: "Liberation", Variant: "Sans"}
	markerSize = vg.Points(3.4)
	ringRadius = vg.Points(6.5)
	// legendNameLen caps arm names in the timeline legend.
	legendNameLen = 36
)

func newPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.BackgroundColor = color.White
	p.Title.Text = title
	p.Title.TextStyle.Font = font.From(sansFont, 13)
	p.Title.TextStyle.Color = textColor
	p.Title.Padding = vg.Points(8)
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Label.TextStyle.Font = font.From(sansFont, 11)
		ax.Label.TextStyle.Color = textColor
		ax.Tick.Label.Font = font.From(sansFont, 10)
		ax.Tick.Label.Color = textColor
		ax.Color = axisColor
		ax.Width = vg.Points(0.8)
		ax.Tick.Color = axisColor
		ax.Tick.Width = vg.Points(0.8)
		ax.Tick.Length = vg.Points(4)
		ax.Padding = vg.Points(3)
	}
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.X.Label.Padding = vg.Points(2)
	p.Y.Label.Padding = vg.Points(4)
	p.Y.Tick.Marker = ticker{}
	p.X.Tick.Marker = ticker{}
	p.Legend.TextStyle.Font = font.From(sansFont, 10)
	p.Legend.TextStyle.Color = textColor
	return p
}

// hgrid returns the horizontal grid lines behind both figures.
func hgrid() *plotter.Grid {
	g := plotter.NewGrid()
	g.Vertical.Color = nil
	g.Horizontal = draw.LineStyle{Color: gridColor, Width: vg.Points(0.6)}
	return g
}

// refStyle is the style of the baseline median's label.
func refStyle(p *plot.Plot) text.Style {
	sty := p.Legend.TextStyle
	sty.Font = font.From(sansFont, 9)
	sty.Color = refColor
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YCenter
	return sty
}

func unitSuffix(s Spec) string {
	if s.Unit == "" {
		return ""
	}
	return " (" + s.Unit + ")"
}

func metricName(s Spec) string {
	if s.Label != "" {
		return s.Label
	}
	if s.Metric == "" {
		return "value"
	}
	return s.Metric
}

// shortName shortens name to at most max runes by cutting out its middle
// (arm names often share a prefix and differ at the end).
func shortName(name string, max int) string {
	if name == "" {
		name = "(unnamed)"
	}
	if max < 5 {
		max = 5
	}
	r := []rune(name)
	if len(r) <= max {
		return name
	}
	head := max / 2
	tail := max - 1 - head
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}

// ticker is the default tick placement with more major ticks than gonum's
// default (which aims at three), so values can be read off the y axis.
type ticker struct{}

// maxTicks bounds the major ticks of an axis.
const maxTicks = 100

func (ticker) Ticks(min, max float64) []plot.Tick {
	if !(max > min) {
		return plot.DefaultTicks{}.Ticks(min, max)
	}
	step := niceStep((max - min) / 5)
	var ticks []plot.Tick
	prec := -int(math.Floor(math.Log10(step)))
	if prec < 0 {
		prec = 0
	}
	first := math.Ceil(min/step) * step
	if first+step == first || (max-min)/step > maxTicks {
		// A range within a float's last digits of its values: a step
		// would not move v, and the loops below would never end.
		return []plot.Tick{{Value: min, Label: fmt.Sprint(min)}, {Value: max, Label: fmt.Sprint(max)}}
	}
	for v := first; v <= max+step*1e-9; v += step {
		if math.Abs(v) < step*1e-9 {
			v = 0
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: fmt.Sprintf("%.*f", prec, v)})
	}
	// minor ticks halfway.
	for v := first - step/2; v <= max; v += step {
		if v >= min {
			ticks = append(ticks, plot.Tick{Value: v})
		}
	}
	return ticks
}

func niceStep(raw float64) float64 {
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if raw <= m*mag {
			return m * mag
		}
	}
	return 10 * mag
}

// padRange widens [lo, hi] by frac on both sides (and makes a degenerate
// range non-empty).
func padRange(lo, hi, frac float64) (float64, float64) {
	if hi < lo {
		lo, hi = hi, lo
	}
	d := hi - lo
	if d == 0 {
		d = math.Abs(hi) * 0.1
		if d == 0 {
			d = 1
		}
		return lo - d, hi + d
	}
	return lo - d*frac, hi + d*frac
}
