package plots

import (
	"image/color"
	"math"
	"sort"
	"strings"

	"github.com/decodebench/decodebench/stats"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// This file holds what the figures draw to say what the verdict says: the
// per-arm drift trend, the marks of contended runs, the baseline median's
// reference line, and the note on an axis that does not start at 0.

// Legend texts, also what tests look for.
const (
	trendLabel     = "trend (Theil–Sen)"
	outlierLabel   = "outlier"
	contendedLabel = "contended (host busy)"
	noZeroNote     = "axis does not start at 0"
)

var (
	contendColor = color.RGBA{0x1A, 0x1A, 0x1A, 0xFF}
	boxRadius    = vg.Points(8.5) // half side of the contended square
	trendStyle   = draw.LineStyle{Color: refColor, Width: vg.Points(1.4), Dashes: []vg.Length{vg.Points(6), vg.Points(3)}}
)

// theilSen fits y = a + b·x by the Theil–Sen estimator: b is the median of
// the slopes between every pair of points with distinct x, a the median of
// y − b·x. It is used for the drift trend rather than least squares
// because, like the record's drift figure (Spearman's rho and medians of
// thirds), a single slow run cannot fake or hide a trend. ok is false with
// fewer than 3 points or when every x is the same.
func theilSen(xs, ys []float64) (a, b float64, ok bool) {
	n := len(xs)
	if n < 3 || len(ys) != n {
		return 0, 0, false
	}
	var slopes []float64
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if dx := xs[j] - xs[i]; dx != 0 {
				slopes = append(slopes, (ys[j]-ys[i])/dx)
			}
		}
	}
	if len(slopes) == 0 {
		return 0, 0, false
	}
	sort.Float64s(slopes)
	b = stats.Quantile(slopes, 0.5)
	res := make([]float64, n)
	for i := range xs {
		res[i] = ys[i] - b*xs[i]
	}
	sort.Float64s(res)
	return stats.Quantile(res, 0.5), b, true
}

// trendLine returns the Theil–Sen line of an arm's points (value on the
// run's midpoint time) between its first and last midpoint.
func trendLine(g []point) (x0, y0, x1, y1 float64, ok bool) {
	xs, ys := make([]float64, len(g)), make([]float64, len(g))
	x0, x1 = math.Inf(1), math.Inf(-1)
	for i, p := range g {
		xs[i], ys[i] = (p.x0+p.x1)/2, p.run.Value
		x0, x1 = math.Min(x0, xs[i]), math.Max(x1, xs[i])
	}
	a, b, ok := theilSen(xs, ys)
	if !ok {
		return 0, 0, 0, 0, false
	}
	return x0, a + b*x0, x1, a + b*x1, true
}

// drawContended draws a dashed square around a contended run's marker
// (the outlier mark is a ring, so a run can carry both).
func drawContended(c *draw.Canvas, pt vg.Point) {
	sq := squareAt(pt, boxRadius)
	c.StrokeLines(draw.LineStyle{Color: contendColor, Width: vg.Points(1.1), Dashes: []vg.Length{vg.Points(2.5), vg.Points(1.5)}}, append(sq, sq[0]))
}

// drawMarks draws a run's outlier ring and contended square.
func drawMarks(c *draw.Canvas, r Run, pt vg.Point) {
	if r.Outlier {
		drawRing(c, pt)
	}
	if r.Contended {
		drawContended(c, pt)
	}
}

// markEntries returns the legend entries for the marks that occur in pts.
func markEntries(pts []point) []hentry {
	var outlier, contended bool
	for _, p := range pts {
		outlier = outlier || p.run.Outlier
		contended = contended || p.run.Contended
	}
	var out []hentry
	if outlier {
		out = append(out, hentry{outlierLabel, thumb{ring: true}})
	}
	if contended {
		out = append(out, hentry{contendedLabel, thumb{contended: true}})
	}
	return out
}

// drawReference draws the baseline median across the data area as
// alternating dark and white dashes 1.8 pt wide over everything but the
// points: on a box edge or the baseline arm's own median bar (arm-coloured,
// 3 pt) the white dashes still stand out against the colour, and the dark
// ones against the white background.
func drawReference(c draw.Canvas, y vg.Length) {
	under := draw.LineStyle{Color: color.White, Width: vg.Points(1.8)}
	over := draw.LineStyle{Color: refColor, Width: vg.Points(1.8), Dashes: []vg.Length{vg.Points(5), vg.Points(3)}}
	c.StrokeLine2(under, c.Min.X, y, c.Max.X, y)
	c.StrokeLine2(over, c.Min.X, y, c.Max.X, y)
}

// noteAxisOrigin adds a second line to the y axis label when the axis,
// as set, does not include 0, so a reader does not take the height of a
// point for its size relative to zero.
func noteAxisOrigin(p *plot.Plot) {
	if p.Y.Min > 0 || p.Y.Max < 0 {
		p.Y.Label.Text += "\n" + noZeroNote
	}
}

// wrapText breaks s at spaces into lines of at most width when set in
// sty (a word longer than width stays whole on its line).
func wrapText(s string, sty font.Font, width vg.Length) string {
	face := font.DefaultCache.Lookup(sty, sty.Size)
	var lines []string
	line := ""
	for _, w := range words(s) {
		if line == "" {
			line = w
			continue
		}
		if face.Width(line+" "+w) > width {
			lines = append(lines, line)
			line = w
			continue
		}
		line += " " + w
	}
	if line != "" {
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// words splits s at spaces, keeping a bracketed interval ("[+3.9%, +8.2%]")
// in one piece.
func words(s string) []string {
	var out []string
	open := false
	for _, f := range strings.Fields(s) {
		if open {
			out[len(out)-1] += " " + f
		} else {
			out = append(out, f)
		}
		if strings.HasPrefix(f, "[") {
			open = true
		}
		if strings.HasSuffix(f, "]") {
			open = false
		}
	}
	return out
}
