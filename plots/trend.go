package plots

import (
	"cmp"
	"fmt"
	"image/color"
	"maps"
	"math"
	"slices"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// TrendPoint is one record's headline ratio on its date.
type TrendPoint struct {
	// Date is the record's date; its calendar day (in its own location)
	// is where the point stands: at the day's tick when it is the day's
	// only record, else spread across the day in Seq order (xPlaces).
	Date time.Time
	// Seq orders the records of one date: the -N suffix of the record's
	// name, 1 for none (0 counts as 1).
	Seq      int
	Hardware string
	Ratio    float64
	Lo, Hi   float64 // the ratio's interval; both 0 when none
	// Valid marks a publishable record (VALID): drawn filled; any other
	// (INCONCLUSIVE, UNVERIFIED) is drawn hollow.
	Valid bool
	// Rejected marks a REJECTED record, which has no ratio: a cross at
	// the foot of the plot on its date.
	Rejected bool
}

// TrendStep is a step detected in one line of the plot: a dashed
// vertical line in the line's colour at the first record after it.
type TrendStep struct {
	Date     time.Time
	Seq      int // the first record's, as TrendPoint's
	Hardware string
}

// denseLine is the number of records above which a line's records drop
// their intervals and draw smaller markers, so hundreds stay readable.
const denseLine = 60

// Legend texts of the trend plot, also what tests look for.
const (
	TrendValidLabel    = "VALID"
	TrendNotPubLabel   = "not publishable (INCONCLUSIVE, UNVERIFIED)"
	TrendClippedLabel  = "interval clipped (continues past the arrow)"
	TrendRejectedLabel = "REJECTED (no ratio)"
	TrendStepLabel     = "step (change point)"
)

// day is a date's calendar day as the seconds of its UTC midnight: a record
// dated 2026-12-01 stands at the 2026-12-01 tick whatever the machine's
// time zone.
func day(t time.Time) float64 {
	y, m, d := t.Date()
	return float64(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix())
}

// dayShare is how much of a day the records of one date spread over: the
// first at the day's tick, the others after it, clear of the next day's.
const dayShare = 0.75

// xPlaces places the records of each date: the day's only record at its
// tick; n records of one day at k×dayShare/n of the day after it, k their
// rank by Seq (records of one day shared one x, one hiding the other).
func xPlaces(points []TrendPoint, steps []TrendStep) func(time.Time, int) float64 {
	seqs := map[float64][]int{}
	add := func(t time.Time, seq int) {
		d := day(t)
		if !slices.Contains(seqs[d], max(seq, 1)) {
			seqs[d] = append(seqs[d], max(seq, 1))
		}
	}
	for _, pt := range points {
		add(pt.Date, pt.Seq)
	}
	for _, st := range steps {
		add(st.Date, st.Seq)
	}
	for _, s := range seqs {
		slices.Sort(s)
	}
	return func(t time.Time, seq int) float64 {
		d := day(t)
		s := seqs[d]
		k := slices.Index(s, max(seq, 1))
		return d + float64(max(k, 0))*dayShare*86400/float64(max(len(s), 1))
	}
}

// dayTicks puts the x axis' ticks at UTC midnights, every step days (1, 2,
// 7, 14, then multiples of 30) so that at most eight are labelled; each
// label is its own day, never repeated.
type dayTicks struct{}

func (dayTicks) Ticks(min, max float64) []plot.Tick {
	const sec = 86400
	first, last := math.Ceil(min/sec), math.Floor(max/sec)
	days := last - first + 1
	step := 1.0
	for _, s := range []float64{1, 2, 7, 14, 30, 60, 90, 180, 365} {
		step = s
		if days/s <= 8 {
			break
		}
	}
	var out []plot.Tick
	for d := first; d <= last; d++ {
		t := plot.Tick{Value: d * sec}
		if math.Mod(d-first, step) == 0 {
			t.Label = time.Unix(int64(d*sec), 0).UTC().Format("2006-01-02")
		} else if days > 120 {
			continue // no minor tick for every day of a long span
		}
		out = append(out, t)
	}
	return out
}

// Trend draws a feature's headline ratio against date, one line per
// hardware slug, with each record's interval as an error bar and the line
// of no change at 1. A VALID record's point is filled, any other's hollow;
// an interval far wider than the spread of the ratios is clipped (with an
// arrow) rather than squashing every other point flat; the legend is a
// strip above the data, never cut. The drawing depends only on the
// points, so the same records give the same bytes. Each detected step is
// drawn as a dashed vertical line in its line's colour.
func Trend(feature, metric string, points []TrendPoint, steps []TrendStep) (*plot.Plot, error) {
	p, _, _, err := trend(feature, metric, points, steps)
	return p, err
}

// trend is Trend, also returning the marks and the legend's entries.
func trend(feature, metric string, points []TrendPoint, steps []TrendStep) (*plot.Plot, *trendMarks, []hentry, error) {
	if len(points) == 0 {
		return nil, nil, nil, fmt.Errorf("%w: no records with a ratio", ErrNoPlottableRuns)
	}
	p := newPlot(fmt.Sprintf("%s: ratio to baseline over time", feature), "record date", metric+" ratio (arm / baseline)")
	p.X.Tick.Marker = dayTicks{}
	byHW := map[string][]TrendPoint{}
	for _, pt := range points {
		byHW[pt.Hardware] = append(byHW[pt.Hardware], pt)
	}
	hws := slices.Sorted(maps.Keys(byHW))
	xOf := xPlaces(points, steps)
	minX, maxX := xOf(points[0].Date, points[0].Seq), xOf(points[0].Date, points[0].Seq)
	yLo, yHi := trendRange(points)
	var entries []hentry
	marks := &trendMarks{lo: yLo, hi: yHi}
	valid, notPub, rejected := false, false, false
	colorOf := map[string]color.Color{}
	for i, hw := range hws {
		pts := byHW[hw]
		slices.SortStableFunc(pts, func(a, b TrendPoint) int {
			return cmp.Or(a.Date.Compare(b.Date), cmp.Compare(max(a.Seq, 1), max(b.Seq, 1)))
		})
		var xy plotter.XYs
		clr := ArmColor(i)
		colorOf[hw] = clr
		dense := len(pts) > denseLine
		for _, pt := range pts {
			x := xOf(pt.Date, pt.Seq)
			minX, maxX = min(minX, x), max(maxX, x)
			if dense {
				pt.Lo, pt.Hi = 0, 0
			}
			marks.pts = append(marks.pts, trendMark{TrendPoint: pt, x: x, color: clr, shape: armShape(i), dense: dense})
			if pt.Rejected {
				rejected = true
				continue
			}
			xy = append(xy, plotter.XY{X: x, Y: pt.Ratio})
			valid, notPub = valid || pt.Valid, notPub || !pt.Valid
		}
		if len(xy) == 0 {
			continue
		}
		line, err := plotter.NewLine(xy)
		if err != nil {
			return nil, nil, nil, err
		}
		line.Color, line.Width = clr, vg.Points(1.2)
		p.Add(line)
		ls := line.LineStyle
		entries = append(entries, hentry{name: hw, thumb: thumb{line: &ls, marker: true, shape: armShape(i), color: clr}})
	}
	one := plotter.NewFunction(func(float64) float64 { return 1 })
	one.Color = axisColor
	one.Dashes = []vg.Length{vg.Points(3), vg.Points(3)}
	p.Add(one, marks)
	for _, st := range steps {
		x := xOf(st.Date, st.Seq)
		l, err := plotter.NewLine(plotter.XYs{{X: x, Y: yLo}, {X: x, Y: yHi}})
		if err != nil {
			return nil, nil, nil, err
		}
		l.Color = colorOf[st.Hardware]
		if l.Color == nil {
			l.Color = refColor
		}
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
		p.Add(l)
	}
	if rejected {
		entries = append(entries, hentry{name: TrendRejectedLabel, thumb: thumb{cross: true, color: axisColor}})
	}
	if len(steps) > 0 {
		ls := draw.LineStyle{Color: refColor, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(4), vg.Points(2)}}
		entries = append(entries, hentry{name: TrendStepLabel, thumb: thumb{line: &ls}})
	}
	if valid && notPub {
		entries = append(entries, hentry{name: TrendValidLabel, thumb: thumb{marker: true, color: axisColor}},
			hentry{name: TrendNotPubLabel, thumb: thumb{marker: true, color: axisColor, hollow: true}})
	}
	if marks.clipped() {
		entries = append(entries, hentry{name: TrendClippedLabel, thumb: thumb{arrow: true, color: axisColor}})
	}
	addLegend(p, entries)
	pad := max((maxX-minX)*0.05, 86400)
	p.X.Min, p.X.Max = minX-pad, maxX+pad
	p.Y.Min, p.Y.Max = yLo, yHi
	return p, marks, entries, nil
}

// trendRange is the y axis' range: every ratio and 1, with room around
// them, and every interval end that stays within three times the spread
// of the ratios (at least ±5% around them); intervals beyond are clipped.
func trendRange(points []TrendPoint) (float64, float64) {
	lo, hi := 1.0, 1.0
	for _, pt := range points {
		if !pt.Rejected {
			lo, hi = min(lo, pt.Ratio), max(hi, pt.Ratio)
		}
	}
	span := max(hi-lo, 0.05)
	limLo, limHi := lo-3*span, hi+3*span
	yLo, yHi := lo-0.15*span, hi+0.15*span
	for _, pt := range points {
		if pt.Lo == 0 && pt.Hi == 0 {
			continue
		}
		yLo = min(yLo, max(pt.Lo, limLo))
		yHi = max(yHi, min(pt.Hi, limHi))
	}
	return max(yLo, 0), yHi
}

type trendMark struct {
	TrendPoint
	x     float64
	color color.Color
	shape shape
	dense bool
}

// trendMarks draws each record's interval (clipped to lo..hi, with an
// arrow where it continues) and its marker: filled when VALID, hollow
// otherwise.
type trendMarks struct {
	pts    []trendMark
	lo, hi float64
}

func (m *trendMarks) clipped() bool {
	for _, pt := range m.pts {
		if (pt.Lo != 0 || pt.Hi != 0) && (pt.Lo < m.lo || pt.Hi > m.hi) {
			return true
		}
	}
	return false
}

func (m *trendMarks) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	cap := vg.Points(3)
	for _, pt := range m.pts {
		if pt.Lo == 0 && pt.Hi == 0 {
			continue
		}
		x := tx(pt.x)
		lo, hi := ty(max(pt.Lo, m.lo)), ty(min(pt.Hi, m.hi))
		sty := draw.LineStyle{Color: pt.color, Width: vg.Points(1)}
		c.StrokeLine2(sty, x, lo, x, hi)
		for _, end := range []struct {
			y       vg.Length
			clipped bool
			dir     vg.Length
		}{{lo, pt.Lo < m.lo, -1}, {hi, pt.Hi > m.hi, 1}} {
			if end.clipped {
				drawArrow(&c, pt.color, vg.Point{X: x, Y: end.y}, end.dir)
			} else {
				c.StrokeLine2(sty, x-cap, end.y, x+cap, end.y)
			}
		}
	}
	for _, pt := range m.pts {
		r := markerSize * 1.1
		if pt.dense {
			r = markerSize * 0.6
		}
		if pt.Rejected {
			drawCross(&c, pt.color, vg.Point{X: tx(pt.x), Y: ty(m.lo) + vg.Points(5)})
			continue
		}
		at := vg.Point{X: tx(pt.x), Y: ty(pt.Ratio)}
		if pt.Valid {
			drawMarker(&c, pt.shape, pt.color, r, at)
		} else {
			drawHollow(&c, pt.shape, pt.color, r, at)
		}
	}
}

// drawHollow is a marker's outline on white: a record that is not
// publishable.
func drawHollow(c *draw.Canvas, sh shape, clr color.Color, r vg.Length, pt vg.Point) {
	drawMarker(c, sh, clr, r+vg.Points(0.8), pt)
	drawMarker(c, sh, color.White, r-vg.Points(0.6), pt)
}

// drawCross is a REJECTED record's mark: an ×.
func drawCross(c *draw.Canvas, clr color.Color, pt vg.Point) {
	h := vg.Points(3.5)
	sty := draw.LineStyle{Color: clr, Width: vg.Points(1.4)}
	c.StrokeLine2(sty, pt.X-h, pt.Y-h, pt.X+h, pt.Y+h)
	c.StrokeLine2(sty, pt.X-h, pt.Y+h, pt.X+h, pt.Y-h)
}

// drawArrow is an arrowhead at pt pointing up (dir 1) or down (-1).
func drawArrow(c *draw.Canvas, clr color.Color, pt vg.Point, dir vg.Length) {
	h, w := vg.Points(5), vg.Points(3.5)
	c.FillPolygon(clr, []vg.Point{{X: pt.X, Y: pt.Y + dir*h}, {X: pt.X - w, Y: pt.Y}, {X: pt.X + w, Y: pt.Y}})
}

func (m *trendMarks) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = math.Inf(1), math.Inf(-1)
	for _, pt := range m.pts {
		xmin, xmax = min(xmin, pt.x), max(xmax, pt.x)
	}
	return xmin, xmax, m.lo, m.hi
}
