package website_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/decodebench/decodebench/internal/headless"
	"github.com/decodebench/decodebench/internal/synthrecords"
)

// The site of the committed records in a real browser (headless
// Chromium): every page loads with no exception, console error or
// refused resource (the Content-Security-Policy holds), its images load;
// on a feature page, the mouse over a point shows that point's record,
// a click opens its page, and the keyboard does the same; screenshots of
// the top page and a feature page are kept (screenshotDir).
func TestBrowserCommittedRecords(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	build(t, committed, out)
	br := headless.Start(t, 1400, 1000)
	for _, rel := range pages(t, out) {
		if _, err := br.Load(headless.FileURL(filepath.Join(out, rel)), time.Minute); err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		broken, err := headless.Run(br, 10*time.Second, chromedp.Evaluate[[]string](
			`Array.from(document.images).filter(function (i) { return !i.complete || i.naturalWidth === 0; }).map(function (i) { return i.src; })`))
		if err != nil || len(broken) > 0 {
			t.Errorf("%s: images that do not load: %v %v", rel, broken, err)
		}
		if errs := br.Errors(); len(errs) > 0 {
			t.Errorf("%s: %q", rel, errs)
		}
	}
	exercisePlot(t, br, out, "spec-draft", "committed")
	screenshot(t, br, filepath.Join(out, "index.html"), "committed-top.png")
}

// browserRecords is how many generated records the browser test of a
// fleet's history builds a site of: DECODEBENCH_BROWSER_RECORDS, or 200
// (make test; generating, checking and building 1,000 takes over a
// minute on two loaded cores: make bench runs the test with 1,000).
func browserRecords(t *testing.T) int {
	if s := os.Getenv("DECODEBENCH_BROWSER_RECORDS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 20 {
			t.Fatalf("DECODEBENCH_BROWSER_RECORDS=%q: a number of at least 20", s)
		}
		return n
	}
	return 200
}

// The site of a fleet's history, generated records of two hardware with
// a 5% step planted half-way, in a real browser: the top page and the
// feature page load with no error, within a minute each on a loaded
// machine, the step is drawn, and the mouse, a click and the keyboard
// reach the right records.
func TestBrowserGeneratedRecords(t *testing.T) {
	n := browserRecords(t)
	dir := filepath.Join(t.TempDir(), "records")
	start := time.Now()
	if _, err := synthrecords.Generate(synthrecords.Spec{Source: filepath.Join(committed, "spec-draft-epyc-2026-11-29.md"), Dir: dir, N: n,
		Start: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), PerDay: 2, Hardware: []string{"epyc", "xeon"}, Link: true, Noise: 0.02, Seed: 1,
		Scale: func(i int) (float64, float64) {
			if i >= n/2 {
				return 1, 1.05
			}
			return 1, 1
		}}); err != nil {
		t.Fatal(err)
	}
	generated := time.Since(start)
	out := filepath.Join(t.TempDir(), "site")
	build(t, dir, out)
	t.Logf("%d records generated in %s, their site built in %s", n, generated.Round(time.Millisecond), (time.Since(start) - generated).Round(time.Millisecond))
	br := headless.Start(t, 1400, 1000)
	for _, rel := range []string{"index.html", "f/spec-draft.epyc.html", "f/spec-draft.html"} {
		tm, err := br.Load(headless.FileURL(filepath.Join(out, rel)), time.Minute)
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		t.Logf("%s: loaded in %.0f ms, rendered in %.0f ms, %d elements", rel, tm.Load, tm.Rendered, tm.Nodes)
		if errs := br.Errors(); len(errs) > 0 {
			t.Errorf("%s: %q", rel, errs)
		}
	}
	steps, err := headless.Run(br, 10*time.Second, chromedp.Evaluate[int](`document.querySelectorAll('#hw-epyc svg line.step').length`))
	if err != nil || steps == 0 {
		t.Errorf("no step drawn on epyc: %v", err)
	}
	exercisePlot(t, br, out, "spec-draft", "generated")
	screenshot(t, br, filepath.Join(out, "index.html"), "generated-top.png")
}

// pageData is what a feature page embeds: its history (as history --json
// writes it) and where its plots' points stand.
type pageData struct {
	History struct {
		Series []struct {
			Metrics []struct {
				Kind   string `json:"kind"`
				Points []struct {
					Record string  `json:"record"`
					Value  float64 `json:"value"`
				} `json:"points"`
			} `json:"metrics"`
		} `json:"series"`
	}
	Plots struct {
		Marked []struct {
			Record string `json:"record"`
		} `json:"marked"`
		Plots map[string]struct {
			X   []float64 `json:"x"`
			Y   []float64 `json:"y"`
			Ref []string  `json:"ref"`
		} `json:"plots"`
	}
}

var islands = regexp.MustCompile(`(?s)<script type="application/json" id="(history|plot)-data">(.*?)</script>`)

func readPageData(t *testing.T, page string) pageData {
	t.Helper()
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	var d pageData
	for _, m := range islands.FindAllSubmatch(b, -1) {
		v := any(&d.History)
		if string(m[1]) == "plot" {
			v = &d.Plots
		}
		if err := json.Unmarshal(m[2], v); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

// record is the record a point's ref names, and the value its tip shows.
func (d pageData) record(ref string) (string, string) {
	var a, b, c int
	if _, err := fmt.Sscanf(ref, "x.%d", &a); err == nil {
		return d.Plots.Marked[a].Record, ""
	}
	fmt.Sscanf(ref, "%d.%d.%d", &a, &b, &c)
	m := d.History.Series[a].Metrics[b]
	p := m.Points[c]
	if m.Kind == "ratio" {
		return p.Record, fmt.Sprintf(": %.3f×", p.Value)
	}
	return p.Record, ""
}

type tipState struct {
	Hidden bool   `json:"hidden"`
	Record string `json:"record"`
	Text   string `json:"text"`
	URL    string `json:"url"`
}

const tipJS = `(function () { var t = document.getElementById('tip');
  return {hidden: t.hidden, record: t.getAttribute('data-record') || '', text: t.textContent, url: location.href}; })()`

// exercisePlot moves the mouse onto the last point of a feature page's
// first ratio plot and expects its record in the tip, clicks it and
// expects its page; then focuses the plot, moves with the arrow keys and
// End, and opens the last point's record with Enter. A screenshot of the
// page with the tip is kept.
func exercisePlot(t *testing.T, br *headless.Browser, out, feature, label string) {
	t.Helper()
	page := filepath.Join(out, "f", feature+".html")
	d := readPageData(t, page)
	id := "plot-0-ratio"
	pts, ok := d.Plots.Plots[id]
	if !ok || len(pts.Ref) < 2 {
		t.Fatalf("%s: no plot %s of two points or more", feature, id)
	}
	i := len(pts.Ref) - 1
	wantRecord, wantValue := d.record(pts.Ref[i])
	if err := br.Do(time.Minute, chromedp.Navigate(headless.FileURL(page))); err != nil {
		t.Fatal(err)
	}
	at, err := headless.Run(br, 10*time.Second, chromedp.Evaluate[[]float64](fmt.Sprintf(`(function () {
  var svg = document.getElementById(%q); svg.scrollIntoView({block: 'center'});
  var p = svg.createSVGPoint(); p.x = %g; p.y = %g; p = p.matrixTransform(svg.getScreenCTM()); return [p.x, p.y]; })()`, id, pts.X[i], pts.Y[i])))
	if err != nil {
		t.Fatal(err)
	}
	if err := br.Do(10*time.Second, chromedp.MouseEvent(chromedp.MouseMoved, at[0], at[1])); err != nil {
		t.Fatal(err)
	}
	tip := readTip(t, br)
	if tip.Hidden || tip.Record != wantRecord || !strings.Contains(tip.Text, wantValue) || !strings.Contains(tip.Text, "engine: ") {
		t.Errorf("the mouse on %s's last point shows %+v, want %s%s", id, tip, wantRecord, wantValue)
	}
	screenshot(t, br, "", label+"-"+feature+".png")
	if err := br.Do(10*time.Second, chromedp.MouseClickXY(at[0], at[1])); err != nil {
		t.Fatal(err)
	}
	opened(t, br, wantRecord)

	if err := br.Do(time.Minute, chromedp.Navigate(headless.FileURL(page)), chromedp.Focus(chromedp.ID(id))); err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct {
		keys string
		at   int
	}{{"", 0}, {kb.ArrowRight, 1}, {kb.ArrowLeft, 0}, {kb.End, len(pts.Ref) - 1}} {
		if step.keys != "" {
			if err := br.Do(10*time.Second, chromedp.KeyEvent(step.keys)); err != nil {
				t.Fatal(err)
			}
		}
		want, _ := d.record(pts.Ref[step.at])
		if tip := readTip(t, br); tip.Hidden || tip.Record != want {
			t.Errorf("keyboard at point %d of %s: the tip shows %+v, want %s", step.at, id, tip, want)
		}
	}
	if err := br.Do(10*time.Second, chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatal(err)
	}
	opened(t, br, wantRecord)
	if errs := br.Errors(); len(errs) > 0 {
		t.Errorf("%s: %q", feature, errs)
	}
}

func readTip(t *testing.T, br *headless.Browser) tipState {
	t.Helper()
	tip, err := headless.Run(br, 10*time.Second, chromedp.Evaluate[tipState](tipJS))
	if err != nil {
		t.Fatal(err)
	}
	return tip
}

// opened waits for the record's page to be the one shown, loaded.
func opened(t *testing.T, br *headless.Browser, stem string) {
	t.Helper()
	want := "/r/" + stem + ".html"
	deadline := time.Now().Add(20 * time.Second)
	for {
		s, err := headless.Run(br, 10*time.Second, chromedp.Evaluate[string](`document.readyState === 'complete' ? location.href : ''`))
		if err == nil && strings.HasSuffix(s, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the record's page %s did not open (at %q, %v)", want, s, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// screenshotDir keeps the screenshots: DECODEBENCH_SITE_SCREENSHOTS, or
// decodebench-site-screenshots in the temporary folder. They are a test's
// artefact, for the developer to look at, never committed.
func screenshotDir(t *testing.T) string {
	dir := os.Getenv("DECODEBENCH_SITE_SCREENSHOTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "decodebench-site-screenshots")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// screenshot keeps the viewport of page (the page shown when "") as name.
func screenshot(t *testing.T, br *headless.Browser, page, name string) {
	t.Helper()
	if page != "" {
		if err := br.Do(time.Minute, chromedp.Navigate(headless.FileURL(page))); err != nil {
			t.Fatal(err)
		}
	}
	png, err := headless.Run(br, 30*time.Second, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(screenshotDir(t), name)
	if err := os.WriteFile(p, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", p)
}
