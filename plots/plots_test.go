package plots

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot"
)

// fakeCampaign is a realistic campaign: len(arms) arms, rounds rounds, the
// arm order rotating each round, runs of 24–33 s separated by 2 s cooldowns,
// slight upward drift, one outlier (a slow run of the second arm) and one
// contended run (of the third arm).
func fakeCampaign(arms []string, rounds int) []Run {
	t := time.Date(2025, 3, 14, 9, 26, 53, 0, time.UTC)
	base := []float64{41.8, 45.3, 39.6, 43.0}
	var runs []Run
	seq := 0
	for r := 0; r < rounds; r++ {
		for k := range arms {
			a := (k + r) % len(arms)
			seq++
			dur := time.Duration(24+(seq*7)%10) * time.Second
			noise := 0.35 * math.Sin(float64(seq)*2.3)
			v := base[a%len(base)] + 0.12*float64(r) + noise
			run := Run{Seq: seq, Arm: arms[a], Start: t, End: t.Add(dur), Value: v}
			if r == 2 && a == 1 {
				run.Value = base[1] - 4.1
				run.Outlier = true
			}
			if r == 3 && a == 2 {
				run.Contended = true
			}
			runs = append(runs, run)
			t = t.Add(dur + 2*time.Second) // cooldown
		}
	}
	return runs
}

var testArms = []string{"llama.cpp-b4500", "llama.cpp-b4500+fa", "llama.cpp-b4500+kvq8"}

func testSpec() Spec {
	return Spec{Metric: "decode_tok_s", Unit: "tok/s", Label: "decode rate", Arms: testArms, Baseline: testArms[0], BaselineMedian: 42.1,
		Annotations: []Annotation{{testArms[1], "+8.1% faster [+5.2%, +9.9%]"}, {testArms[2], "-5.3% [-9.0%, +0.4%] ~"}}}
}

func decodePNG(t *testing.T, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("png decode: %v", err)
	}
	return img
}

// writeSamples renders both figures and, with $PLOTS_SAMPLE_DIR set,
// keeps them in dir under it.
func writeSamples(t *testing.T, dir string, runs []Run, s Spec) error {
	t.Helper()
	files, err := Render(runs, s)
	if err != nil {
		return err
	}
	out := os.Getenv("PLOTS_SAMPLE_DIR")
	if out == "" {
		return nil
	}
	if err := os.MkdirAll(filepath.Join(out, dir), 0o755); err != nil {
		return err
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(out, dir, f.Name), f.Data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func TestRender(t *testing.T) {
	files, err := Render(fakeCampaign(testArms, 5), testSpec())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	data := map[string][]byte{}
	for _, f := range files {
		names = append(names, f.Name)
		data[f.Name] = f.Data
	}
	want := []string{"timeline.png", "timeline.svg", "distributions.png", "distributions.svg"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("names = %v, want %v", names, want)
	}
	for _, n := range names {
		b := data[n]
		switch filepath.Ext(n) {
		case ".png":
			img := decodePNG(t, b)
			if got := img.Bounds().Size(); got != (image.Point{980, 490}) {
				t.Errorf("%s: size %v, want 980x490", n, got)
			}
		case ".svg":
			s := string(b)
			if !strings.HasPrefix(s, "<?xml") && !strings.HasPrefix(s, "<svg") {
				t.Errorf("%s: does not start with <?xml or <svg: %.40q", n, s)
			}
			if !strings.Contains(s, "</svg>") {
				t.Errorf("%s: no closing </svg>", n)
			}
			if strings.Contains(s, "font-family:Liberation Sans;") {
				t.Errorf("%s: font family without fallback", n)
			}
		}
		t.Logf("%s: %d bytes", n, len(b))
	}
	svg := data["distributions.svg"]
	for _, s := range []string{"baseline median", "decode rate by arm (tok/s)", testArms[2]} {
		if !bytes.Contains(svg, []byte(s)) {
			t.Errorf("distributions.svg lacks %q", s)
		}
	}
	svg = data["timeline.svg"]
	for _, s := range []string{"decode rate per run (tok/s) — order and drift trend", "time since first run started (s)", "outlier", testArms[1]} {
		if !bytes.Contains(svg, []byte(s)) {
			t.Errorf("timeline.svg lacks %q", s)
		}
	}
}

func countColor(img image.Image, c color.RGBA) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if color.RGBAModel.Convert(img.At(x, y)).(color.RGBA) == c {
				n++
			}
		}
	}
	return n
}

func TestPNGPixels(t *testing.T) {
	runs := fakeCampaign(testArms, 5)
	s := testSpec()
	tl, err := Timeline(runs, s)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := Distributions(runs, s)
	if err != nil {
		t.Fatal(err)
	}
	white := color.RGBA{255, 255, 255, 255}
	for _, f := range []struct {
		name string
		p    *plot.Plot
	}{{"timeline", tl}, {"distributions", ds}} {
		name := f.name
		b, err := PNG(f.p)
		if err != nil {
			t.Fatal(err)
		}
		img := decodePNG(t, b)
		bd := img.Bounds()
		for _, pt := range []image.Point{bd.Min, {bd.Max.X - 1, bd.Min.Y}, {bd.Min.X, bd.Max.Y - 1}, {bd.Max.X - 1, bd.Max.Y - 1}} {
			if got := color.RGBAModel.Convert(img.At(pt.X, pt.Y)).(color.RGBA); got != white {
				t.Errorf("%s: corner %v = %v, want opaque white", name, pt, got)
			}
		}
		for i, a := range testArms {
			if n := countColor(img, ArmColor(i)); n < 50 {
				t.Errorf("%s: arm %q colour %v: %d pixels, want >= 50", name, a, ArmColor(i), n)
			}
		}
		// A palette colour no arm uses must be absent.
		if n := countColor(img, ArmColor(len(testArms))); n != 0 {
			t.Errorf("%s: unused palette colour present (%d pixels)", name, n)
		}
	}
}

func TestDeterministic(t *testing.T) {
	render := func() [][]byte {
		runs := fakeCampaign(testArms, 5)
		tl, err := Timeline(runs, testSpec())
		if err != nil {
			t.Fatal(err)
		}
		ds, err := Distributions(runs, testSpec())
		if err != nil {
			t.Fatal(err)
		}
		var out [][]byte
		for _, p := range []*plot.Plot{tl, ds} {
			b1, err := PNG(p)
			if err != nil {
				t.Fatal(err)
			}
			b2, err := SVG(p)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, b1, b2)
		}
		return out
	}
	a, b := render(), render()
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			t.Errorf("output %d differs between renders", i)
		}
	}
}

func TestNoPlottableRuns(t *testing.T) {
	runs := fakeCampaign(testArms, 2)
	for i := range runs {
		runs[i].Value = math.NaN()
	}
	runs[0].Value = math.Inf(1)
	for _, tc := range []struct {
		name string
		runs []Run
	}{{"nan", runs}, {"empty", nil}} {
		if _, err := Timeline(tc.runs, testSpec()); !errors.Is(err, ErrNoPlottableRuns) || !strings.Contains(err.Error(), "no plottable runs") {
			t.Errorf("%s: Timeline err = %v", tc.name, err)
		}
		if _, err := Distributions(tc.runs, testSpec()); !errors.Is(err, ErrNoPlottableRuns) {
			t.Errorf("%s: Distributions err = %v", tc.name, err)
		}
		if files, err := Render(tc.runs, testSpec()); !errors.Is(err, ErrNoPlottableRuns) || files != nil {
			t.Errorf("%s: Render = %d files, %v", tc.name, len(files), err)
		}
	}
	// Values but no start times: distributions work, the timeline cannot.
	runs = fakeCampaign(testArms, 2)
	for i := range runs {
		runs[i].Start, runs[i].End = time.Time{}, time.Time{}
	}
	if _, err := Timeline(runs, testSpec()); !errors.Is(err, ErrNoPlottableRuns) {
		t.Errorf("no start times: Timeline err = %v", err)
	}
	if _, err := Distributions(runs, testSpec()); err != nil {
		t.Errorf("no start times: Distributions err = %v", err)
	}
}

func TestSkipsFailedAndUnknownArms(t *testing.T) {
	runs := fakeCampaign(testArms[:2], 3)
	runs[1].Value = math.NaN() // failed run
	runs = append(runs, Run{Seq: 99, Arm: "extra", Start: runs[len(runs)-1].End.Add(2 * time.Second),
		End: runs[len(runs)-1].End.Add(30 * time.Second), Value: 40})
	s := Spec{Metric: "decode_tok_s", Unit: "tok/s", Arms: testArms[:2], Baseline: testArms[0]} // no BaselineMedian
	pts, arms := prepare(runs, s)
	if len(pts) != len(runs)-1 {
		t.Errorf("plottable = %d, want %d", len(pts), len(runs)-1)
	}
	if want := []string{testArms[0], testArms[1], "extra"}; !reflect.DeepEqual(arms, want) {
		t.Errorf("arms = %v, want %v", arms, want)
	}
	if pts[0].x0 != 0 {
		t.Errorf("first run x0 = %v, want 0", pts[0].x0)
	}
	ds, err := Distributions(runs, s)
	if err != nil {
		t.Fatal(err)
	}
	b, err := SVG(ds)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte("baseline median")) {
		t.Error("baseline median not drawn when computed from the baseline arm")
	}
	if _, err := Timeline(runs, s); err != nil {
		t.Fatal(err)
	}
}

func TestShortName(t *testing.T) {
	for _, tc := range []struct {
		in   string
		max  int
		want string
	}{
		{"arm-a", 10, "arm-a"},
		{"llama.cpp-b4500+kvq8", 12, "llama.…+kvq8"},
		{"", 10, "(unnamed)"},
	} {
		got := shortName(tc.in, tc.max)
		if got != tc.want || len([]rune(got)) > tc.max {
			t.Errorf("shortName(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
	}
}

func TestNoBaselineLine(t *testing.T) {
	s := Spec{Metric: "ttft_ms", Unit: "ms", Arms: testArms[:2]} // no baseline at all
	ds, err := Distributions(fakeCampaign(testArms[:2], 3), s)
	if err != nil {
		t.Fatal(err)
	}
	b, err := SVG(ds)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte("baseline median")) {
		t.Error("baseline median drawn without a baseline")
	}
}

func TestArmStyleUnique(t *testing.T) {
	seen := map[[2]any]int{}
	for i := 0; i < 32; i++ {
		k := [2]any{ArmColor(i), armShape(i)}
		if j, dup := seen[k]; dup {
			t.Fatalf("arms %d and %d share colour and shape", j, i)
		}
		seen[k] = i
	}
}

func TestQuantileAndJitter(t *testing.T) {
	st := statsOf([]float64{5, 1, 3, 2, 4})
	if st.q1 != 2 || st.median != 3 || st.q3 != 4 {
		t.Errorf("stats = %+v", st)
	}
	for k := 0; k < 100; k++ {
		if j := jitter(k); j < -0.5 || j >= 0.5 {
			t.Fatalf("jitter(%d) = %v out of range", k, j)
		}
	}
}

// TestSamples writes the sample figures to $PLOTS_SAMPLE_DIR when set.
func TestSamples(t *testing.T) {
	if os.Getenv("PLOTS_SAMPLE_DIR") == "" {
		t.Skip("PLOTS_SAMPLE_DIR not set")
	}
	if err := writeSamples(t, ".", fakeCampaign(testArms, 5), testSpec()); err != nil {
		t.Fatal(err)
	}
}

// TestEdgeCases renders awkward inputs: many arms (palette wraps), a single
// run, identical values, zero-length runs, long names, a campaign of hours,
// an arm listed without runs. With $PLOTS_SAMPLE_DIR set the PNGs are kept.
func TestEdgeCases(t *testing.T) {
	many := make([]string, 10)
	for i := range many {
		many[i] = "arm-" + string(rune('a'+i))
	}
	long := []string{"vllm-0.7.3-tp1-fp8-kv-cache-prefix-caching-on", "sglang-0.4.3-torch-compile"}
	single := fakeCampaign(testArms[:1], 1)
	same := fakeCampaign(testArms[:2], 3)
	for i := range same {
		same[i].Value = 50
		same[i].End = same[i].Start // zero-length
	}
	hours := fakeCampaign(testArms, 5)
	for i := range hours {
		off := time.Duration(i) * 17 * time.Minute
		hours[i].Start, hours[i].End = hours[i].Start.Add(off), hours[i].End.Add(off+10*time.Minute)
		hours[i].Value *= 1000
	}
	cases := []struct {
		name string
		runs []Run
		spec Spec
	}{
		{"many", fakeCampaign(many, 3), Spec{Metric: "decode_tok_s", Unit: "tok/s", Arms: many, Baseline: "arm-a"}},
		{"single", single, Spec{Metric: "ttft_ms", Unit: "ms", Arms: testArms[:1]}},
		{"same", same, Spec{Metric: "decode_tok_s", Arms: testArms[:2], Baseline: testArms[0], BaselineMedian: 50}},
		{"long", fakeCampaign(long, 4), Spec{Metric: "decode_tok_s", Unit: "tok/s", Arms: append(long, "never-ran"), Baseline: long[0]}},
		{"hours", hours, Spec{Metric: "prefill_tok_s", Unit: "tok/s", Arms: testArms, Baseline: testArms[0], BaselineMedian: math.NaN()}},
	}
	for _, tc := range cases {
		if err := writeSamples(t, "edge-"+tc.name, tc.runs, tc.spec); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

// Values a float's last digit apart (100 and the next float above it, as a
// crafted journal or an engine's rounding gives) render: the axis' tick
// loop once never ended on them and ran the machine out of memory.
func TestRenderValuesOneFloatApart(t *testing.T) {
	runs := fakeCampaign(testArms, 4)
	for i := range runs {
		runs[i].Value = 100
		if i%2 == 1 {
			runs[i].Value = math.Nextafter(100, 200)
		}
	}
	done := make(chan error, 1)
	go func() {
		_, err := Render(runs, testSpec())
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("Render has not returned after a minute")
	}
	if ticks := (ticker{}).Ticks(100, math.Nextafter(100, 200)); len(ticks) != 2 {
		t.Errorf("ticks %+v, want the two ends", ticks)
	}
}
