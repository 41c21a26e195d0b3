package plots

import (
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

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
