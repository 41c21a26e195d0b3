package plots

import (
	"bytes"
	"fmt"
	"html"
	"image/color"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// File names written by WriteAll, in the order they are returned.
const (
	TimelinePNG      = "timeline.png"
	TimelineSVG      = "timeline.svg"
	DistributionsPNG = "distributions.png"
	DistributionsSVG = "distributions.svg"
)

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
