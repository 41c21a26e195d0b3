package review

import (
	"bytes"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/russross/blackfriday/v2"
)

// hostileText is what a record or an engine may hold where a renderer
// writes its text: HTML, a link, an image, a pipe that would end a table
// cell, line breaks, a bidirectional override, a terminal escape.
var hostileText = []string{
	`<img src=x onerror="alert(1)">`,
	`[click](https://evil.example/)`,
	`![pixel](https://evil.example/t.png)`,
	`tok|s`,
	"tok\n\n# forged heading\n| a | b |",
	"tok\u202e/s",
	"tok\x1b]0;pwned\x07/s",
	"<script>alert(1)</script>",
	"`code` span",
}

// renderHTML renders Markdown as GitHub-flavoured Markdown is (tables
// and autolinks on), through a real Markdown renderer.
func renderHTML(md []byte) string {
	return string(blackfriday.Run(md, blackfriday.WithExtensions(blackfriday.CommonExtensions|blackfriday.Autolink)))
}

// mustStayInert fails when the rendered HTML holds a tag, an image or a
// link whose text is not its target that came from the text, or a
// character that reorders it. A bare URL in text stays what it is (GitHub
// links it as it shows it, as it does in a record).
func mustStayInert(t *testing.T, what, html string) {
	t.Helper()
	for _, bad := range []string{"<img", "<script", "<h1", "\u202e", "\x1b", "\x07"} {
		if strings.Contains(html, bad) {
			t.Errorf("%s renders %q:\n%s", what, bad, html)
		}
	}
	for _, a := range anchor.FindAllStringSubmatch(html, -1) {
		if a[1] != a[2] {
			t.Errorf("%s renders a link to %s that reads %q:\n%s", what, a[1], a[2], html)
		}
	}
}

var anchor = regexp.MustCompile(`<a href="([^"]*)"[^>]*>(.*?)</a>`)

// cellsPerRow is the number of cells of every row of every table.
func cellsPerRow(html string) []int {
	var out []int
	for _, row := range regexp.MustCompile(`(?s)<tr>(.*?)</tr>`).FindAllStringSubmatch(html, -1) {
		out = append(out, strings.Count(row[1], "<td")+strings.Count(row[1], "<th"))
	}
	return out
}

// diff --markdown (which the review job appends to the job summary) keeps
// every value from the records inert: a unit, an arm, a metric, a
// condition, a path; each table row keeps its cells; and the terminal
// text escapes the unit as it does every other value.
func TestDiffMarkdownHostileValues(t *testing.T) {
	for _, h := range hostileText {
		d := Diff{Old: "old" + h + ".md", New: "new.md", Threshold: 0.02,
			Conditions: []Condition{{What: "engine " + h, Old: h, New: "v2"}},
			Metrics: []MetricDiff{{Arm: "draft" + h, Metric: "decode" + h, Unit: h, OldMedian: 10, NewMedian: 11, OldN: 5, NewN: 5,
				Change: 0.1, Lo: 0.05, Hi: 0.15, P: 0.01, Verdict: Better}},
			Ratios: []RatioDiff{{Arm: "draft" + h, Baseline: "classic" + h, Metric: "m" + h, Old: 1.1, New: 1.2, Change: 0.09, Verdict: Same}},
			Family: &RatioFamily{Alpha: 0.05, Comparisons: 1, Confidence: 0.95}}
		var md bytes.Buffer
		if err := d.WriteMarkdown(&md); err != nil {
			t.Fatal(err)
		}
		html := renderHTML(md.Bytes())
		mustStayInert(t, "diff --markdown of "+strings.ToValidUTF8(h, "?"), html)
		rows := cellsPerRow(html)
		want := []int{3, 3, 7, 7, 7, 7} // the ratios have a p column too
		if len(rows) != len(want) {
			t.Errorf("%q: %d table rows, want %d:\n%s", h, len(rows), len(want), md.String())
			continue
		}
		for i := range want {
			if rows[i] != want[i] {
				t.Errorf("%q: row %d has %d cells, want %d:\n%s", h, i+1, rows[i], want[i], md.String())
			}
		}
		var text bytes.Buffer
		if err := d.WriteText(&text); err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{"\u202e", "\x1b", "\x07"} {
			if strings.Contains(text.String(), bad) {
				t.Errorf("diff's text of %q holds %q", h, bad)
			}
		}
		if n := strings.Count(text.String(), "\n"); strings.Contains(h, "\n") && n != strings.Count(plainDiffText(t, d), "\n") {
			t.Errorf("diff's text of %q has %d lines, a value broke one:\n%s", h, n, text.String())
		}
	}
}

// plainDiffText is d's text with plain values, for its line count.
func plainDiffText(t *testing.T, d Diff) string {
	d.Old, d.Conditions[0].What, d.Conditions[0].Old = "old.md", "engine", "v1"
	m, r := d.Metrics[0], d.Ratios[0]
	m.Arm, m.Metric, m.Unit = "draft", "decode", "tok/s"
	r.Arm, r.Baseline, r.Metric = "draft", "classic", "m"
	d.Metrics, d.Ratios = []MetricDiff{m}, []RatioDiff{r}
	var b bytes.Buffer
	if err := d.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// The index links every record, plot and page by a relative path that
// resolves inside the records folder: a record file named like a URL
// (https:evil.example.md) is the file beside the index, never a site.
func TestIndexLinksStayInTheFolder(t *testing.T) {
	paths := generated(t, 2)
	dir := filepath.Dir(paths[0])
	for i, name := range []string{"https:evil.example.md", "javascript:alert(1).md"} {
		if err := os.Rename(paths[i], filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "mailto:x@evil.example.md"), []byte("not a record"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Index(dir, nil); err != nil {
		t.Fatal(err)
	}
	pages, _ := filepath.Glob(filepath.Join(dir, "index", "*.md"))
	pages = append(pages, filepath.Join(dir, IndexFile))
	links := 0
	for _, p := range pages {
		md, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		html := renderHTML(md)
		for _, m := range regexp.MustCompile(`(?:href|src)="([^"]*)"`).FindAllStringSubmatch(html, -1) {
			links++
			target := m[1]
			u, err := url.Parse(target)
			if err != nil || u.Scheme != "" || u.Host != "" || strings.HasPrefix(target, "/") {
				t.Errorf("%s links %q, not a relative path", filepath.Base(p), target)
				continue
			}
			rel := filepath.Join(filepath.Dir(p), filepath.FromSlash(u.Path))
			if r, err := filepath.Rel(dir, rel); err != nil || strings.HasPrefix(r, "..") {
				t.Errorf("%s links %q, outside the records folder", filepath.Base(p), target)
			} else if _, err := os.Stat(rel); err != nil {
				t.Errorf("%s links %q, which is no file there", filepath.Base(p), target)
			}
		}
	}
	if links < 6 {
		t.Errorf("only %d links in the index", links)
	}
}
