package plots

import (
	"image/color"
	"math"

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
