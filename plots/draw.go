package plots

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// shape is an arm's marker: one filled shape per arm, a ring around outliers.
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
	switch sh {
	case square:
		c.FillPolygon(clr, squareAt(pt, r*0.88))
	case triangle:
		h := r * 1.3
		c.FillPolygon(clr, []vg.Point{{X: pt.X, Y: pt.Y + h}, {X: pt.X - h*0.866, Y: pt.Y - h*0.5}, {X: pt.X + h*0.866, Y: pt.Y - h*0.5}})
	case diamond:
		h := r * 1.25
		c.FillPolygon(clr, []vg.Point{{X: pt.X, Y: pt.Y + h}, {X: pt.X + h*0.8, Y: pt.Y}, {X: pt.X, Y: pt.Y - h}, {X: pt.X - h*0.8, Y: pt.Y}})
	default:
		c.SetColor(clr)
		c.Fill(circleAt(pt, r))
	}
}

func drawRing(c *draw.Canvas, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: ringColor, Width: vg.Points(1.4)})
	c.Stroke(circleAt(pt, ringRadius))
}

// squareAt returns the corners of the square of half side h around pt.
func squareAt(pt vg.Point, h vg.Length) []vg.Point {
	return []vg.Point{{X: pt.X - h, Y: pt.Y - h}, {X: pt.X + h, Y: pt.Y - h}, {X: pt.X + h, Y: pt.Y + h}, {X: pt.X - h, Y: pt.Y + h}}
}

// circleAt returns the circle of radius r around pt.
func circleAt(pt vg.Point, r vg.Length) vg.Path {
	var p vg.Path
	p.Move(vg.Point{X: pt.X + r, Y: pt.Y})
	p.Arc(pt, r, 0, 2*math.Pi)
	p.Close()
	return p
}

// thumb is a legend thumbnail: optional line, optional marker, optional ring.
type thumb struct {
	line      *draw.LineStyle
	marker    bool
	shape     shape
	color     color.Color
	ring      bool
	contended bool
	hollow    bool // the marker's outline only
	arrow     bool // an arrowhead (an interval that continues)
	cross     bool // a REJECTED record's ×
}

func (t thumb) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	if t.line != nil {
		c.StrokeLine2(*t.line, c.Min.X, y, c.Max.X, y)
	}
	switch {
	case t.cross:
		drawCross(c, t.color, c.Center())
	case t.marker && t.hollow:
		drawHollow(c, t.shape, t.color, markerSize, c.Center())
	case t.marker:
		drawMarker(c, t.shape, t.color, markerSize, c.Center())
	case t.arrow:
		drawArrow(c, t.color, vg.Point{X: c.Center().X, Y: c.Center().Y - vg.Points(2.5)}, 1)
	}
	if t.ring {
		drawRing(c, c.Center())
	}
	if t.contended {
		drawContended(c, c.Center())
	}
}

// drawPoints draws each point's marker at pos, then the outlier and
// contention marks on top.
func drawPoints(c *draw.Canvas, pts []point, pos func(point) vg.Point) {
	for _, p := range pts {
		drawMarker(c, armShape(p.arm), ArmColor(p.arm), markerSize, pos(p))
	}
	for _, p := range pts {
		drawMarks(c, p.run, pos(p))
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
	widths  []vg.Length // of each row
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

// addLegend adds a horizontal legend of entries to p, if there are any.
func addLegend(p *plot.Plot, entries []hentry) {
	if len(entries) == 0 {
		return
	}
	lg := &hlegend{sty: p.Legend.TextStyle, entries: entries}
	// Available width: the figure less a generous allowance for the y axis.
	lg.layout(Width - vg.Points(60))
	p.Add(lg)
}

func (h *hlegend) entryWidth(e hentry) vg.Length {
	return hlThumbW + hlGap + h.sty.Width(e.name)
}

// layout breaks the entries into rows no wider than avail.
func (h *hlegend) layout(avail vg.Length) {
	h.rows, h.widths = nil, nil
	var row []hentry
	var w vg.Length
	for _, e := range h.entries {
		ew := h.entryWidth(e)
		if len(row) > 0 && w+hlSep+ew > avail {
			h.rows, h.widths = append(h.rows, row), append(h.widths, w)
			row, w = nil, 0
		}
		if len(row) > 0 {
			w += hlSep
		}
		row = append(row, e)
		w += ew
	}
	if len(row) > 0 {
		h.rows, h.widths = append(h.rows, row), append(h.widths, w)
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
	for k, row := range h.rows {
		x := c.Center().X - h.widths[k]/2
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
