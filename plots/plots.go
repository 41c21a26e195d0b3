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
	"cmp"
	"errors"
	"fmt"
	"html"
	"image/color"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/decodebench/decodebench/stats"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
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

// Figure geometry: 7×3.5 inches, rendered at 140 dpi (980×490 px) for PNG.
const (
	Width  = 7 * vg.Inch
	Height = 3.5 * vg.Inch
	DPI    = 140
)

// ErrNoPlottableRuns is returned (wrapped) when no run has a finite value
// (and, for the timeline, a start time).
var ErrNoPlottableRuns = errors.New("plots: no plottable runs")

// point is a plottable run placed in a figure.
type point struct {
	run  Run
	arm  int     // index into the arm list
	x0   float64 // timeline: seconds since first start
	x1   float64
	xj   float64 // distributions: jittered x position
	hasT bool    // has a usable start time
}

// prepare returns the plottable points (finite value) and the arm order:
// Spec.Arms first, then arms only seen in runs, in order of first
// appearance by Seq.
func prepare(runs []Run, s Spec) ([]point, []string) {
	sorted := slices.Clone(runs)
	slices.SortStableFunc(sorted, func(a, b Run) int { return cmp.Or(cmp.Compare(a.Seq, b.Seq), a.Start.Compare(b.Start)) })
	names := slices.Clone(s.Arms)
	var t0 time.Time
	for _, r := range sorted {
		names = append(names, r.Arm)
		if !r.Start.IsZero() && (t0.IsZero() || r.Start.Before(t0)) {
			t0 = r.Start
		}
	}
	var arms []string
	idx := map[string]int{}
	for _, a := range names {
		if _, ok := idx[a]; !ok {
			idx[a] = len(arms)
			arms = append(arms, a)
		}
	}
	var pts []point
	for _, r := range sorted {
		if !stats.Finite(r.Value) {
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

// File names of the figures Render returns, in its order.
const (
	TimelinePNG      = "timeline.png"
	TimelineSVG      = "timeline.svg"
	DistributionsPNG = "distributions.png"
	DistributionsSVG = "distributions.svg"
)

// Names are the figures' file names, each a record may name.
var Names = []string{TimelinePNG, TimelineSVG, DistributionsPNG, DistributionsSVG}

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

// File is one rendered figure file.
type File struct {
	Name string
	Data []byte
}

// Render renders both figures, timeline.png, timeline.svg,
// distributions.png and distributions.svg in that order, without writing
// them: the caller writes them through a folder it holds open (safefs), so
// a link planted at a figure's name is replaced, never written through.
// Either figure failing to render fails both.
func Render(runs []Run, s Spec) ([]File, error) {
	tl, err := Timeline(runs, s)
	if err != nil {
		return nil, err
	}
	ds, err := Distributions(runs, s)
	if err != nil {
		return nil, err
	}
	files := []struct {
		name string
		p    *plot.Plot
		enc  func(*plot.Plot) ([]byte, error)
		data []byte
	}{{TimelinePNG, tl, PNG, nil}, {TimelineSVG, tl, SVG, nil}, {DistributionsPNG, ds, PNG, nil}, {DistributionsSVG, ds, SVG, nil}}
	out := make([]File, 0, len(files))
	for i := range files {
		if files[i].data, err = files[i].enc(files[i].p); err != nil {
			return nil, err
		}
		out = append(out, File{Name: files[i].name, Data: files[i].data})
	}
	return out, nil
}
