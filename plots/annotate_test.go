package plots

import (
	"math"
	"regexp"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
)

func svgOf(t *testing.T, f func([]Run, Spec) (*plot.Plot, error), runs []Run, sp Spec) string {
	t.Helper()
	p, err := f(runs, sp)
	if err != nil {
		t.Fatal(err)
	}
	b, err := SVG(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Theil–Sen: one wild point moves neither slope nor intercept (least
// squares would move both).
func TestTheilSen(t *testing.T) {
	xs := []float64{0, 1, 2, 3, 4}
	ys := []float64{1, 3, 5, 7, 9}
	ys[3] = 100
	a, b, ok := theilSen(xs, ys)
	if !ok || a != 1 || b != 2 {
		t.Errorf("theilSen = %v, %v, %v; want 1, 2, true", a, b, ok)
	}
	if _, _, ok := theilSen([]float64{1, 2}, []float64{1, 2}); ok {
		t.Error("two points gave a trend")
	}
	if _, _, ok := theilSen([]float64{5, 5, 5}, []float64{1, 2, 3}); ok {
		t.Error("a single time gave a trend")
	}
}

// Each arm with at least 3 runs gets a dashed trend line in its colour,
// and the legend names the estimator; with fewer runs there is neither.
func TestTimelineTrend(t *testing.T) {
	dash := "stroke-dasharray:6,3"
	s := svgOf(t, Timeline, fakeCampaign(testArms, 5), testSpec())
	if got := strings.Count(s, dash); got != len(testArms)+1 { // + legend thumbnail
		t.Errorf("trend lines: %d, want %d", got, len(testArms)+1)
	}
	for i := range testArms {
		c := ArmColor(i)
		re := regexp.MustCompile(`stroke:#` + hex(c.R, c.G, c.B) + `;[^"]*` + dash)
		if !re.MatchString(s) {
			t.Errorf("no trend line in arm %d's colour", i)
		}
	}
	if !strings.Contains(s, trendLabel) {
		t.Errorf("legend lacks %q", trendLabel)
	}
	s = svgOf(t, Timeline, fakeCampaign(testArms, 2), testSpec())
	if strings.Contains(s, dash) || strings.Contains(s, trendLabel) {
		t.Error("trend drawn for arms of 2 runs")
	}
}

func hex(r, g, b uint8) string {
	const digits = "0123456789ABCDEF"
	out := []byte{}
	for _, v := range []uint8{r, g, b} {
		out = append(out, digits[v>>4], digits[v&15])
	}
	return string(out)
}

// Contended runs are boxed (one dashed square each, plus the legend's) in
// both figures, and outliers ringed with a legend entry in both; neither
// legend entry appears when no run carries the mark.
func TestMarks(t *testing.T) {
	const square = "stroke-dasharray:2.5,1.5"
	runs := fakeCampaign(testArms, 5)
	runs[0].Contended = true // a second one, also an outlier-free baseline run
	for _, f := range []func([]Run, Spec) (*plot.Plot, error){Timeline, Distributions} {
		s := svgOf(t, f, runs, testSpec())
		if got := strings.Count(s, square); got != 3 {
			t.Errorf("contended squares: %d, want 3 (2 runs + legend)", got)
		}
		for _, w := range []string{contendedLabel, outlierLabel} {
			if !strings.Contains(s, w) {
				t.Errorf("legend lacks %q", w)
			}
		}
	}
	clean := fakeCampaign(testArms, 5)
	for i := range clean {
		clean[i].Outlier, clean[i].Contended = false, false
	}
	for _, f := range []func([]Run, Spec) (*plot.Plot, error){Timeline, Distributions} {
		s := svgOf(t, f, clean, testSpec())
		if strings.Contains(s, square) || strings.Contains(s, contendedLabel) || strings.Contains(s, ">"+outlierLabel+"<") {
			t.Error("marks or their legend drawn without marked runs")
		}
	}
}

// The baseline median is drawn after (over) every box, as dark dashes on a
// white underlay, so it shows when it sits on a box edge or on the
// baseline arm's own median bar.
func TestBaselineOverBoxes(t *testing.T) {
	runs := fakeCampaign(testArms, 5)
	sp := testSpec()
	var base []float64
	for _, r := range runs {
		if r.Arm == sp.Baseline {
			base = append(base, r.Value)
		}
	}
	sp.BaselineMedian = statsOf(base).q3 // on the baseline box's top edge
	s := svgOf(t, Distributions, runs, sp)
	ref := strings.Index(s, "stroke:#444444;stroke-width:1.8;stroke-dasharray:5,3")
	if ref < 0 {
		t.Fatal("no baseline median line")
	}
	under := strings.LastIndex(s[:ref], "stroke:#FFFFFF;stroke-width:1.8")
	if under < 0 {
		t.Error("no white underlay before the baseline median line")
	}
	for i := range testArms {
		c := ArmColor(i)
		box := "stroke:#" + hex(c.R, c.G, c.B) + ";stroke-width:1.2"
		if j := strings.LastIndex(s, box); j < 0 || j > ref {
			t.Errorf("arm %d's box (at %d) is not drawn before the baseline line (at %d)", i, j, ref)
		}
	}
}

// Arms are annotated with the text given for them, and only them; a long
// one is wrapped without splitting its interval.
func TestAnnotations(t *testing.T) {
	s := svgOf(t, Distributions, fakeCampaign(testArms, 5), testSpec())
	for _, a := range testSpec().Annotations {
		if !strings.Contains(s, ">"+a.Text+"<") {
			t.Errorf("annotation %q not drawn", a.Text)
		}
	}
	many := make([]string, 10)
	var notes []Annotation
	for i := range many {
		many[i] = "arm-" + string(rune('a'+i))
		if i > 0 {
			notes = append(notes, Annotation{many[i], "-19.0% slower [-25.0%, -12.5%]"})
		}
	}
	s = svgOf(t, Distributions, fakeCampaign(many, 3), Spec{Metric: "decode_tok_s", Arms: many, Baseline: many[0], Annotations: notes})
	if got := strings.Count(s, ">[-25.0%, -12.5%]<"); got != 9 {
		t.Errorf("wrapped interval lines: %d, want 9", got)
	}
	if strings.Contains(s, ">-19.0% slower [-25.0%, -12.5%]<") {
		t.Error("annotation not wrapped in a narrow slot")
	}
	fnt := font.From(sansFont, 10)
	w := vg.Points(40)
	got := wrapText("+3.0% [-0.5%, +8.0%] inconclusive", fnt, w)
	if want := "+3.0%\n[-0.5%, +8.0%]\ninconclusive"; got != want {
		t.Errorf("wrapText = %q, want %q", got, want)
	}
}

// The readable label is used in titles and axes; an axis that does not
// reach 0 says so, one that does not.
func TestLabelAndAxisOrigin(t *testing.T) {
	runs := fakeCampaign(testArms, 5)
	for _, f := range []func([]Run, Spec) (*plot.Plot, error){Timeline, Distributions} {
		p, err := f(runs, testSpec())
		if err != nil {
			t.Fatal(err)
		}
		if p.Y.Min <= 0 || !strings.Contains(p.Y.Label.Text, noZeroNote) || !strings.HasPrefix(p.Y.Label.Text, "decode rate (tok/s)") {
			t.Errorf("y from %v, label %q", p.Y.Min, p.Y.Label.Text)
		}
		if strings.Contains(p.Title.Text, "decode_tok_s") {
			t.Errorf("title %q uses the raw metric name", p.Title.Text)
		}
		near := fakeCampaign(testArms, 5)
		for i := range near {
			near[i].Value = math.Mod(float64(i), 7) + 0.5 // 0.5 … 6.5: the padded axis reaches 0
		}
		p, err = f(near, testSpec())
		if err != nil {
			t.Fatal(err)
		}
		if p.Y.Min > 0 || strings.Contains(p.Y.Label.Text, noZeroNote) {
			t.Errorf("near 0: y from %v, label %q", p.Y.Min, p.Y.Label.Text)
		}
	}
}
