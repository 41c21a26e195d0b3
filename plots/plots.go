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
	"bytes"
	"errors"
	"fmt"
	"html"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
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

// Figure geometry: 7×3.5 inches, rendered at 140 dpi (980×490 px) for PNG.
const (
	Width  = 7 * vg.Inch
	Height = 3.5 * vg.Inch
	DPI    = 140
)

// File names written by WriteAll, in the order they are returned.
const (
	TimelinePNG      = "timeline.png"
	TimelineSVG      = "timeline.svg"
	DistributionsPNG = "distributions.png"
	DistributionsSVG = "distributions.svg"
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

// ---------------------------------------------------------------------------
// Input preparation.

type point struct {
	run  Run
	arm  int     // index into the arm list
	x0   float64 // timeline: seconds since first start
	x1   float64
	xj   float64 // distributions: jittered x position
	hasT bool    // has a usable start time
}

// armOrder returns the arm order: Spec.Arms first, then arms only seen in runs,
// in order of first appearance by Seq.
func armOrder(runs []Run, s Spec) []string {
	seen := map[string]bool{}
	var out []string
	for _, a := range s.Arms {
		if !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	sorted := sortedRuns(runs)
	for _, r := range sorted {
		if !seen[r.Arm] {
			seen[r.Arm] = true
			out = append(out, r.Arm)
		}
	}
	return out
}

func sortedRuns(runs []Run) []Run {
	out := append([]Run(nil), runs...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Seq != out[j].Seq {
			return out[i].Seq < out[j].Seq
		}
		return out[i].Start.Before(out[j].Start)
	})
	return out
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// prepare returns the plottable points (finite value) and the arm list.
func prepare(runs []Run, s Spec) ([]point, []string) {
	arms := armOrder(runs, s)
	idx := make(map[string]int, len(arms))
	for i, a := range arms {
		idx[a] = i
	}
	sorted := sortedRuns(runs)
	var t0 time.Time
	for _, r := range sorted {
		if !r.Start.IsZero() && (t0.IsZero() || r.Start.Before(t0)) {
			t0 = r.Start
		}
	}
	var pts []point
	for _, r := range sorted {
		if !finite(r.Value) {
			continue
		}
		p := point{run: r, arm: idx[r.Arm]}
		if !r.Start.IsZero() {
			p.hasT = true
			p.x0 = r.Start.Sub(t0).Seconds()
			p.x1 = p.x0
			if r.End.After(r.Start) {
				p.x1 = r.End.Sub(t0).Seconds()
			}
		}
		pts = append(pts, p)
	}
	return pts, arms
}

func noRunsErr(runs []Run, what string) error {
	return fmt.Errorf("%w: %d run(s) given, none %s", ErrNoPlottableRuns, len(runs), what)
}

// ---------------------------------------------------------------------------
// Styling shared by both figures.

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

// ticker is the default tick placement with more major ticks than gonum's
// default (which aims at three), so values can be read off the y axis.
type ticker struct{}

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

// ---------------------------------------------------------------------------
// Markers: one filled shape per arm, a ring around outliers.

type shape int

const (
	circle shape = iota
	square
	triangle
	diamond
)

// armShape cycles through the four shapes; past eight arms (where the
// colours repeat) it is shifted so that colour and shape together still tell
// arms apart.
func armShape(i int) shape {
	if i < 0 {
		i = -i
	}
	return shape((i%4 + i/len(okabeIto)) % 4)
}

func drawMarker(c *draw.Canvas, sh shape, clr color.Color, r vg.Length, pt vg.Point) {
	var p vg.Path
	switch sh {
	case square:
		h := r * 0.88
		p.Move(vg.Point{X: pt.X - h, Y: pt.Y - h})
		p.Line(vg.Point{X: pt.X + h, Y: pt.Y - h})
		p.Line(vg.Point{X: pt.X + h, Y: pt.Y + h})
		p.Line(vg.Point{X: pt.X - h, Y: pt.Y + h})
	case triangle:
		h := r * 1.3
		p.Move(vg.Point{X: pt.X, Y: pt.Y + h})
		p.Line(vg.Point{X: pt.X - h*0.866, Y: pt.Y - h*0.5})
		p.Line(vg.Point{X: pt.X + h*0.866, Y: pt.Y - h*0.5})
	case diamond:
		h := r * 1.25
		p.Move(vg.Point{X: pt.X, Y: pt.Y + h})
		p.Line(vg.Point{X: pt.X + h*0.8, Y: pt.Y})
		p.Line(vg.Point{X: pt.X, Y: pt.Y - h})
		p.Line(vg.Point{X: pt.X - h*0.8, Y: pt.Y})
	default:
		p.Move(vg.Point{X: pt.X + r, Y: pt.Y})
		p.Arc(pt, r, 0, 2*math.Pi)
	}
	p.Close()
	c.SetColor(clr)
	c.Fill(p)
}

func drawRing(c *draw.Canvas, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: ringColor, Width: vg.Points(1.4)})
	var p vg.Path
	p.Move(vg.Point{X: pt.X + ringRadius, Y: pt.Y})
	p.Arc(pt, ringRadius, 0, 2*math.Pi)
	p.Close()
	c.Stroke(p)
}

// thumb is a legend thumbnail: optional line, optional marker, optional ring.
type thumb struct {
	line      *draw.LineStyle
	marker    bool
	shape     shape
	color     color.Color
	ring      bool
	contended bool
}

func (t thumb) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	if t.line != nil {
		c.StrokeLine2(*t.line, c.Min.X, y, c.Max.X, y)
	}
	if t.marker {
		drawMarker(c, t.shape, t.color, markerSize, c.Center())
	}
	if t.ring {
		drawRing(c, c.Center())
	}
	if t.contended {
		drawContended(c, c.Center())
	}
}

// margin reserves horizontal room to the right of the data area (for the
// reference-line label) by posing as a glyph that sticks out of the right
// edge; gonum then shrinks the data area so it fits.
type margin struct{ right vg.Length }

func (margin) Plot(draw.Canvas, *plot.Plot) {}

func (m margin) GlyphBoxes(*plot.Plot) []plot.GlyphBox {
	return []plot.GlyphBox{{X: 1, Y: 0.5, Rectangle: vg.Rectangle{
		Min: vg.Point{X: 0, Y: 0}, Max: vg.Point{X: m.right, Y: 0},
	}}}
}

// hlegend is a horizontal legend in a strip between the title and the data
// area (gonum's own legend is vertical and would cover data or, put in a
// margin, take a third of the width). It reserves its height the same way
// margin reserves width; entries wrap into rows when they do not fit.
type hlegend struct {
	sty     text.Style
	entries []hentry
	rows    [][]hentry
}

type hentry struct {
	name  string
	thumb thumb
}

const (
	hlThumbW = vg.Length(22)
	hlGap    = vg.Length(4)  // thumbnail to text
	hlSep    = vg.Length(14) // between entries
	hlPad    = vg.Length(6)  // below the strip
)

func (h *hlegend) entryWidth(e hentry) vg.Length {
	return hlThumbW + hlGap + h.sty.Width(e.name)
}

// layout breaks the entries into rows no wider than avail.
func (h *hlegend) layout(avail vg.Length) {
	h.rows = nil
	var row []hentry
	var w vg.Length
	for _, e := range h.entries {
		ew := h.entryWidth(e)
		if len(row) > 0 && w+hlSep+ew > avail {
			h.rows = append(h.rows, row)
			row, w = nil, 0
		}
		if len(row) > 0 {
			w += hlSep
		}
		row = append(row, e)
		w += ew
	}
	if len(row) > 0 {
		h.rows = append(h.rows, row)
	}
}

func (h *hlegend) rowHeight() vg.Length {
	return h.sty.Height("Ag") * 1.25
}

func (h *hlegend) GlyphBoxes(*plot.Plot) []plot.GlyphBox {
	if len(h.rows) == 0 {
		return nil
	}
	return []plot.GlyphBox{{X: 0.5, Y: 1, Rectangle: vg.Rectangle{
		Min: vg.Point{X: 0, Y: 0}, Max: vg.Point{X: 0, Y: vg.Length(len(h.rows))*h.rowHeight() + hlPad},
	}}}
}

func (h *hlegend) Plot(c draw.Canvas, _ *plot.Plot) {
	rh := h.rowHeight()
	y := c.Max.Y + hlPad + vg.Length(len(h.rows))*rh - rh/2
	for _, row := range h.rows {
		var w vg.Length
		for i, e := range row {
			if i > 0 {
				w += hlSep
			}
			w += h.entryWidth(e)
		}
		x := c.Center().X - w/2
		for _, e := range row {
			tc := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
				Min: vg.Point{X: x, Y: y - rh/2}, Max: vg.Point{X: x + hlThumbW, Y: y + rh/2},
			}}
			e.thumb.Thumbnail(&tc)
			sty := h.sty
			sty.XAlign, sty.YAlign = draw.XLeft, draw.YCenter
			c.FillText(sty, vg.Point{X: x + hlThumbW + hlGap, Y: y}, e.name)
			x += h.entryWidth(e) + hlSep
		}
		y -= rh
	}
}

// ---------------------------------------------------------------------------
// (a) Timeline.

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
	mid := func(p point) vg.Point {
		return vg.Point{X: trX((p.x0 + p.x1) / 2), Y: trY(p.run.Value)}
	}
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
	// Layer 3: markers, then the outlier and contention marks on top.
	for _, p := range t.pts {
		drawMarker(&c, armShape(p.arm), ArmColor(p.arm), markerSize, mid(p))
	}
	for _, p := range t.pts {
		drawMarks(&c, p.run, mid(p))
	}
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

	grid := plotter.NewGrid()
	grid.Vertical.Color = nil
	grid.Horizontal = draw.LineStyle{Color: gridColor, Width: vg.Points(0.6)}
	tl := &timeline{pts: pts, arms: arms}
	p.Add(grid, tl)

	// Legend: arms with data, in arm order; the trend if one is drawn; an
	// entry for each mark that occurs.
	present := make([]bool, len(arms))
	trend := false
	for i, g := range tl.byArm() {
		present[i] = len(g) > 0
		_, _, _, _, ok := trendLine(g)
		trend = trend || ok
	}
	lg := &hlegend{sty: p.Legend.TextStyle}
	for i, a := range arms {
		if !present[i] {
			continue
		}
		ls := draw.LineStyle{Color: ArmColor(i), Width: vg.Points(3)}
		name := shortName(a, legendNameLen)
		if a == s.Baseline && s.Baseline != "" {
			name += " (baseline)"
		}
		lg.entries = append(lg.entries, hentry{name, thumb{line: &ls, marker: true, shape: armShape(i), color: ArmColor(i)}})
	}
	if trend {
		lg.entries = append(lg.entries, hentry{trendLabel, thumb{line: &trendStyle}})
	}
	lg.entries = append(lg.entries, markEntries(pts)...)
	// Available width: the figure less a generous allowance for the y axis.
	lg.layout(Width - vg.Points(60))
	p.Add(lg)
	return p, nil
}

// ---------------------------------------------------------------------------
// (b) Distributions.

type armStats struct {
	n              int
	q1, median, q3 float64
}

// quantile is the linear-interpolation quantile (type 7) of sorted xs.
func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 1 {
		return sorted[0]
	}
	h := q * float64(len(sorted)-1)
	lo := math.Floor(h)
	i := int(lo)
	if i+1 >= len(sorted) {
		return sorted[len(sorted)-1]
	}
	return sorted[i] + (h-lo)*(sorted[i+1]-sorted[i])
}

func statsOf(vals []float64) armStats {
	s := append([]float64(nil), vals...)
	sort.Float64s(s)
	return armStats{n: len(s), q1: quantile(s, 0.25), median: quantile(s, 0.5), q3: quantile(s, 0.75)}
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
	if finite(d.baseline) {
		y := trY(d.baseline)
		drawReference(c, y)
		sty := plt.Legend.TextStyle
		sty.Font = font.From(sansFont, 9)
		sty.Color = refColor
		sty.XAlign = draw.XLeft
		sty.YAlign = draw.YCenter
		c.FillText(sty, vg.Point{X: c.Max.X + vg.Points(5), Y: y}, baselineLabel)
	}
	// Points on top, then the outlier and contention marks.
	for _, p := range d.pts {
		drawMarker(&c, armShape(p.arm), ArmColor(p.arm), markerSize, vg.Point{X: trX(p.xj), Y: trY(p.run.Value)})
	}
	for _, p := range d.pts {
		drawMarks(&c, p.run, vg.Point{X: trX(p.xj), Y: trY(p.run.Value)})
	}
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
		if len(v) > 0 {
			st[i] = statsOf(v)
		}
	}
	// Baseline median: as given; computed from the baseline arm's runs when
	// not given (NaN/Inf/zero) and Baseline names an arm; none when neither.
	base := s.BaselineMedian
	if base == 0 && s.Baseline == "" {
		base = math.NaN()
	}
	if !finite(base) || (base == 0 && s.Baseline != "") {
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
	if finite(base) {
		ylo, yhi = math.Min(ylo, base), math.Max(yhi, base)
	}
	p.Y.Min, p.Y.Max = padRange(ylo, yhi, 0.12)
	noteAxisOrigin(p)
	p.X.Min, p.X.Max = -0.5, float64(len(arms))-0.5

	// Arm labels: name (shortened to fit its slot), run count, a line
	// marking the baseline arm, and the arm's annotation wrapped to the slot.
	slot := (Width - vg.Points(100)) / vg.Length(len(arms))
	maxChars := int(slot / (0.56 * p.X.Tick.Label.Font.Size))
	if maxChars > 28 {
		maxChars = 28
	}
	ticks := make([]plot.Tick, len(arms))
	for i, a := range arms {
		lbl := shortName(a, maxChars) + "\n" + fmt.Sprintf("n=%d", st[i].n)
		if st[i].n == 0 {
			lbl = shortName(a, maxChars) + "\nno valid runs"
		}
		if a == s.Baseline && s.Baseline != "" {
			lbl += "\n(baseline)"
		}
		for _, note := range strings.Split(s.annotation(a), "\n") {
			if note != "" {
				lbl += "\n" + wrapText(note, p.X.Tick.Label.Font, slot-vg.Points(6))
			}
		}
		ticks[i] = plot.Tick{Value: float64(i), Label: lbl}
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Tick.Length = 0

	grid := plotter.NewGrid()
	grid.Vertical.Color = nil
	grid.Horizontal = draw.LineStyle{Color: gridColor, Width: vg.Points(0.6)}
	p.Add(grid, &distributions{pts: pts, stats: st, baseline: base})
	if marks := markEntries(pts); len(marks) > 0 {
		lg := &hlegend{sty: p.Legend.TextStyle, entries: marks}
		lg.layout(Width - vg.Points(60))
		p.Add(lg)
	}
	if finite(base) {
		lbl := p.Legend.TextStyle
		lbl.Font = font.From(sansFont, 9)
		p.Add(margin{right: lbl.Width(baselineLabel) + vg.Points(10)})
	}
	return p, nil
}

// ---------------------------------------------------------------------------
// Encoding and writing.

// PNG renders p at Width×Height and DPI on an opaque white background.
func PNG(p *plot.Plot) ([]byte, error) {
	c := vgimg.NewWith(vgimg.UseWH(Width, Height), vgimg.UseDPI(DPI), vgimg.UseBackgroundColor(color.White))
	p.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("plots: encode png: %w", err)
	}
	return buf.Bytes(), nil
}

// SVG renders p at Width×Height. Fonts are not embedded (that would add
// ~0.5 MB per file); instead the font family falls back to the
// metric-compatible Arial/Helvetica, then any sans-serif, and every text
// element carries its width as laid out with Liberation Sans (textLength),
// so a substituted font is fitted to the same box and labels cannot collide.
func SVG(p *plot.Plot) ([]byte, error) {
	c := vgsvg.New(Width, Height)
	p.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("plots: encode svg: %w", err)
	}
	out := svgText.ReplaceAllStringFunc(buf.String(), func(m string) string {
		sm := svgText.FindStringSubmatch(m)
		size, err := strconv.ParseFloat(sm[2], 64)
		txt := html.UnescapeString(sm[3])
		if err != nil || txt == "" {
			return m
		}
		fnt := font.From(sansFont, vg.Length(size))
		face := font.DefaultCache.Lookup(fnt, fnt.Size)
		w := face.Width(txt)
		return fmt.Sprintf(`%s textLength="%.2f" lengthAdjust="spacingAndGlyphs">%s</text>`, sm[1], w.Points(), sm[3])
	})
	out = strings.ReplaceAll(out, "font-family:Liberation Sans;",
		"font-family:'Liberation Sans',Arial,Helvetica,sans-serif;")
	return []byte(out), nil
}

// svgText matches a text element written by vgsvg in Liberation Sans:
// 1: the start tag without its ">", 2: the font size, 3: the content.
var svgText = regexp.MustCompile(`(<text [^>]*style="font-family:Liberation Sans;[^"]*font-size:([0-9.]+)px[^"]*")>([^<]*)</text>`)

// WriteAll renders both figures and writes timeline.png, timeline.svg,
// distributions.png and distributions.svg into dir (created if needed). It
// returns the file names (relative to dir) in that order. Nothing is written
// unless both figures render.
func WriteAll(dir string, runs []Run, s Spec) ([]string, error) {
	tl, err := Timeline(runs, s)
	if err != nil {
		return nil, err
	}
	ds, err := Distributions(runs, s)
	if err != nil {
		return nil, err
	}
	type file struct {
		name string
		data []byte
	}
	var files []file
	for _, f := range []struct {
		p        *plot.Plot
		png, svg string
	}{{tl, TimelinePNG, TimelineSVG}, {ds, DistributionsPNG, DistributionsSVG}} {
		b, err := PNG(f.p)
		if err != nil {
			return nil, err
		}
		files = append(files, file{f.png, b})
		if b, err = SVG(f.p); err != nil {
			return nil, err
		}
		files = append(files, file{f.svg, b})
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("plots: %w", err)
	}
	names := make([]string, 0, len(files))
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.name), f.data, 0o644); err != nil {
			return names, fmt.Errorf("plots: %w", err)
		}
		names = append(names, f.name)
	}
	return names, nil
}
