// Package sitebench measures the site of a fleet's history in headless
// Chromium: 1,000 and 10,000 generated records (copies of the demo
// record, see synthrecords, two hardware, two records a day, each with
// its own seeded noise and a 5% step planted half-way), the top page's
// load and the biggest feature page's load and render, from disk as a
// reader opens them, each the mean of the benchmark's iterations (`make
// bench` runs three).
//
// DECODEBENCH_SITEBENCH_DIR keeps the records (and the check cache)
// there between runs instead of a temporary folder.
package sitebench

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/internal/headless"
	"github.com/decodebench/decodebench/internal/synthrecords"
	"github.com/decodebench/decodebench/review"
	"github.com/decodebench/decodebench/website"
)

func BenchmarkSite1000(b *testing.B)  { benchSite(b, 1000) }
func BenchmarkSite10000(b *testing.B) { benchSite(b, 10000) }

func benchSite(b *testing.B, n int) {
	root := os.Getenv("DECODEBENCH_SITEBENCH_DIR")
	if root == "" {
		root = b.TempDir()
	}
	recs := filepath.Join(root, fmt.Sprintf("records-%d", n))
	if _, err := os.Stat(filepath.Join(recs, "data")); err != nil {
		start := time.Now()
		if _, err := synthrecords.Generate(synthrecords.Spec{
			Source: "../../docs/benchmark_results/spec-draft-epyc-2026-11-29.md", Dir: recs, N: n,
			Start: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), PerDay: 2, Hardware: []string{"epyc", "xeon"}, Link: true,
			Noise: 0.02, Seed: 1, Scale: step(n)}); err != nil {
			b.Fatal(err)
		}
		b.Logf("%d records generated in %s", n, time.Since(start).Round(time.Second))
	}
	out := filepath.Join(root, fmt.Sprintf("site-%d", n))
	start := time.Now()
	res, err := website.Build(website.Options{Dir: recs, Out: out, Cache: &review.CheckCache{Dir: filepath.Join(root, "cache")}})
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("site of %d records: %d pages in %s (%d files written)", n, res.Pages, time.Since(start).Round(time.Second), len(res.Written))
	feature, size := biggestFeature(b, out)
	br := headless.Start(b, 1400, 1000)
	var top, feat headless.Timing
	for b.Loop() {
		t, err := br.Load(headless.FileURL(filepath.Join(out, "index.html")), time.Minute)
		if err != nil {
			b.Fatal(err)
		}
		f, err := br.Load(headless.FileURL(feature), 2*time.Minute)
		if err != nil {
			b.Fatal(err)
		}
		top, feat = add(top, t), add(feat, f)
	}
	if errs := br.Errors(); len(errs) > 0 {
		b.Fatalf("the pages reported: %q", errs)
	}
	k := float64(b.N)
	b.ReportMetric(top.Load/k, "top-load-ms")
	b.ReportMetric(top.Rendered/k, "top-rendered-ms")
	b.ReportMetric(feat.Load/k, "feature-load-ms")
	b.ReportMetric(feat.Rendered/k, "feature-rendered-ms")
	b.ReportMetric(float64(size)/1e6, "feature-MB")
	b.ReportMetric(float64(feat.Nodes)/k, "feature-nodes")
}

// step plants a 5% step in the arm's primary metric half-way.
func step(n int) func(int) (float64, float64) {
	return func(i int) (float64, float64) {
		if i >= n/2 {
			return 1, 1.05
		}
		return 1, 1
	}
}

func biggestFeature(b *testing.B, out string) (string, int64) {
	pages, err := filepath.Glob(filepath.Join(out, "f", "*.html"))
	if err != nil || len(pages) == 0 {
		b.Fatalf("no feature page in %s: %v", out, err)
	}
	best, size := "", int64(-1)
	for _, p := range pages {
		if strings.Count(filepath.Base(p), ".") > 1 { // a list page, FEATURE.HW.html
			continue
		}
		if st, err := os.Stat(p); err == nil && st.Size() > size {
			best, size = p, st.Size()
		}
	}
	return best, size
}

func add(a, b headless.Timing) headless.Timing {
	return headless.Timing{DOMContentLoaded: a.DOMContentLoaded + b.DOMContentLoaded, Load: a.Load + b.Load,
		FirstPaint: a.FirstPaint + b.FirstPaint, Rendered: a.Rendered + b.Rendered, Nodes: a.Nodes + b.Nodes}
}
