// Package plots draws the two figures embedded in a campaign record:
//
//   - a timeline of the primary metric per run against time since the
//     campaign's first run, one colour per arm, so that the interleaving of
//     arms, the cooldown gaps between runs and any drift are visible;
//   - a per-arm distribution (jittered strip plot with a median/quartile box)
//     with the baseline median as a dashed reference line.
//
// The figures are meant to be read on GitHub in both the light and the dark
// theme, so they always have an opaque white background, near-black text, and
// use the colour-blind-safe Okabe–Ito palette (plus a distinct marker shape
// per arm). Rendering is deterministic: the same input gives the same bytes.
package plots

import (
	"errors"
	"image/color"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Run is one measured run as the plots need it.
type Run struct {
	Seq     int
	Arm     string
	Start   time.Time // when the run began (engine start)
	End     time.Time // when it ended
	Value   float64   // the primary metric's value; NaN or a failed run: skip
	Outlier bool      // flagged by the statistics (ringed)
	// Contended: another process loaded the host during the run (a dashed
	// square around the marker).
	Contended bool
}

// Spec describes what is plotted.
type Spec struct {
	Metric, Unit string // e.g. "decode_tok_s", "tok/s"
	// Label is the metric's readable name for titles and axes ("decode
	// rate"); empty: Metric.
	Label    string
	Arms     []string // arm order; colours follow it
	Baseline string
	// BaselineMedian is drawn as the dashed reference line in
	// Distributions. When it is NaN/Inf/zero and Baseline names an arm with
	// plotted runs, it is computed from them; otherwise no line is drawn
	// (zero with an empty Baseline means "no baseline").
	BaselineMedian float64
	// Annotations are written under an arm's box in Distributions, e.g.
	// its verdict "+6.1% faster [+3.9%, +8.2%]". (A slice of structs, not a
	// map, so that redacting a Spec rewrites arm names here as in Arms.)
	Annotations []Annotation
}

// Annotation is a short text about one arm.
type Annotation struct {
	Arm, Text string
}

// annotation returns the text of arm's annotations, one per line.
func (s Spec) annotation(arm string) string {
	var out []string
	for _, a := range s.Annotations {
		if a.Arm == arm && a.Text != "" {
			out = append(out, a.Text)
		}
	}
	return strings.Join(out, "\n")
}

// isBaseline reports whether arm is the named baseline.
func (s Spec) isBaseline(arm string) bool {
	return s.Baseline != "" && arm == s.Baseline
}

// Figure geometry: 7×3.5 inches, rendered at 140 dpi (980×490 px) for PNG.
const (
	Width  = 7 * vg.Inch
	Height = 3.5 * vg.Inch
	DPI    = 140
)

// ErrNoPlottableRuns is returned (wrapped) when no run has a finite value
// (and, for the timeline, a start time).
var ErrNoPlottableRuns = errors.New("plots: no plottable runs")

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
