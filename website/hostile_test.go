package website_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/website"
)

// hostile is markup a record could carry in any text of it.
const hostile = `</script><script>alert(1)</script><img src=x onerror=alert(2)><style>body{display:none}</style>`

// hostileBody is Markdown a record's body could carry: raw HTML, a
// script link, remote images, a link into its data folder, an image of
// its data folder that is not a PNG the record names, an iframe.
const hostileBody = `
## Injected

<script>alert(3)</script>
<iframe src="https://evil.example/"></iframe>
<img src="https://evil.example/pixel.png" onerror="alert(4)">
<a href="javascript:alert(5)">raw link</a>

[a script link](javascript:alert(6)) and [a data link](data:text/html,<script>alert(7)</script>) and [a file](file:///etc/passwd)
![remote](https://evil.example/remote.png) ![protocol-relative](//evil.example/r.png) ![unnamed](data/DATADIR/unnamed.png)
![svg](data/DATADIR/timeline.svg) ![escape](data/DATADIR/../../../etc/x.png) [runs](data/DATADIR/runs.jsonl)
[a page](https://example.org/ok) <https://example.org/auto> <javascript:alert(8)> <evil@example.org>

`

// elements are the elements of a page as a tolerant XML reader sees them
// (the pages are XHTML), each with its attributes and its text.
type elem struct {
	name  string
	attrs map[string]string
	text  string
}

func elements(t *testing.T, rel string, b []byte) []elem {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(b))
	d.Strict, d.AutoClose, d.Entity = false, xml.HTMLAutoClose, xml.HTMLEntity
	var out []elem
	var open []int
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			e := elem{name: strings.ToLower(tok.Name.Local), attrs: map[string]string{}}
			for _, a := range tok.Attr {
				e.attrs[strings.ToLower(a.Name.Local)] = a.Value
			}
			out = append(out, e)
			open = append(open, len(out)-1)
		case xml.EndElement:
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		case xml.CharData:
			if len(open) > 0 {
				out[open[len(open)-1]].text += string(tok)
			}
		}
	}
}

var (
	siteScript = regexp.MustCompile(`^(\.\./)?assets/site\.js$`)
	localRef   = regexp.MustCompile(`^(\.\./)?(index\.html|[rf]/[A-Za-z0-9_][A-Za-z0-9._-]*\.html|assets/(site\.css|img/[0-9a-f]{64}\.png))?(#[^"<>]*)?$`)
	forbidden  = map[string]bool{"iframe": true, "object": true, "embed": true, "style": true, "base": true, "form": true, "frame": true, "audio": true, "video": true}
)

// checkMarkup fails for anything in a page that is not the site's own:
// a script but the site's and its JSON data, an element that loads or
// styles, an event handler or style attribute, a link or image that
// leaves the site (a link to an http(s) page excepted, marked nofollow
// and sending no referrer).
func checkMarkup(t *testing.T, rel string, b []byte) {
	t.Helper()
	for _, e := range elements(t, rel, b) {
		switch {
		case e.name == "script" && (siteScript.MatchString(e.attrs["src"]) && e.text == "" || e.attrs["type"] == "application/json" && e.attrs["src"] == ""):
		case e.name == "script", forbidden[e.name]:
			t.Errorf("%s: a %s element %v", rel, e.name, e.attrs)
		case e.name == "link" && (e.attrs["rel"] != "stylesheet" || !localRef.MatchString(e.attrs["href"])):
			t.Errorf("%s: link %v", rel, e.attrs)
		case e.name == "meta" && e.attrs["http-equiv"] != "" && e.attrs["http-equiv"] != "Content-Security-Policy":
			t.Errorf("%s: meta %v", rel, e.attrs)
		}
		for k, v := range e.attrs {
			switch {
			case strings.HasPrefix(k, "on"), k == "style", k == "srcset", k == "formaction", k == "xlink:href", k == "background":
				t.Errorf("%s: <%s %s=%q>", rel, e.name, k, v)
			case k == "src" && !localRef.MatchString(v) && !siteScript.MatchString(v):
				t.Errorf("%s: <%s src=%q>", rel, e.name, v)
			case k == "href" && !localRef.MatchString(v):
				web := e.name == "a" && (strings.HasPrefix(v, "https://") || strings.HasPrefix(v, "http://"))
				if !web || e.attrs["rel"] != "nofollow noopener noreferrer" {
					t.Errorf("%s: <%s href=%q rel=%q>", rel, e.name, v, e.attrs["rel"])
				}
			}
		}
	}
}

// Nothing of a record reaches a page as markup: every text is escaped,
// its raw HTML left out, its links only to the site's pages and http(s)
// pages (which load nothing), its images only the PNG files of its data
// folder whose sha256 it names; the JSON the pages embed cannot close
// its script element. A record with such text in its data block and its
// body, under a file name that is not plain, gives pages with no script
// but the site's, no event handler, style, frame or remote resource.
func TestNothingFromARecordReachesThePageAsMarkup(t *testing.T) {
	dir := t.TempDir()
	stem := "spec-draft-epyc-2026-11-29"
	copyRecord(t, committed, stem, dir, stem)
	rec, err := recorder.Load(filepath.Join(dir, stem+".md"))
	if err != nil {
		t.Fatal(err)
	}
	rec.Title = hostile
	rec.Engine.Version = hostile + "\nsecond line"
	rec.Engine.SourceCommit = hostile
	rec.Scenario.Overrides = []string{hostile}
	for i := range rec.Analysis.ArmVerdicts {
		rec.Analysis.ArmVerdicts[i].Arm += hostile
	}
	var md bytes.Buffer
	if err := recorder.Markdown(&md, rec); err != nil {
		t.Fatal(err)
	}
	body := strings.ReplaceAll(hostileBody, "DATADIR", stem)
	src := strings.Replace(md.String(), "\n## Data\n", body+"\n## Data\n", 1)
	if !strings.Contains(src, "## Injected") {
		t.Fatal("the body was not injected")
	}
	name := `odd "name" <b>`
	if err := os.WriteFile(filepath.Join(dir, name+".md"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, stem+".md")); err != nil {
		t.Fatal(err)
	}
	svg := []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(9)"/>`)
	if err := os.WriteFile(filepath.Join(dir, "data", stem, "unnamed.png"), pngBytes(t), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "data", stem, "timeline.svg"), svg, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "site")
	build(t, dir, out)
	checkPre(t, out, name, "&lt;/script&gt;&lt;script&gt;alert(1)")
	// The rewriter, on the same record rendered as Markdown.
	defer website.RenderUnchecked()()
	out = filepath.Join(t.TempDir(), "site")
	build(t, dir, out)

	sum := sha256.Sum256([]byte(name + ".md"))
	page := filepath.Join(out, "r", "_"+hex.EncodeToString(sum[:12])+".html")
	rp, err := os.ReadFile(page)
	if err != nil {
		t.Fatalf("the record's page is not named by its file's sha256: %v", err)
	}
	for _, want := range []string{"&lt;/script&gt;&lt;script&gt;alert(1)", "raw HTML omitted", "a script link", "[image not shown: remote]",
		"[image not shown: unnamed]", "[image not shown: svg]", "[image not shown: escape]", `<a href="https://example.org/ok" rel="nofollow noopener noreferrer">`} {
		if !strings.Contains(string(rp), want) {
			t.Errorf("the record's page has no %q", want)
		}
	}
	if imgs := regexp.MustCompile(`<img src="([^"]*)"`).FindAllStringSubmatch(string(rp), -1); len(imgs) != 2 {
		t.Errorf("images %q, want the record's two plots", imgs)
	} else {
		for _, m := range imgs {
			if !regexp.MustCompile(`^\.\./assets/img/[0-9a-f]{64}\.png$`).MatchString(m[1]) {
				t.Errorf("image %q is not a copy in the site", m[1])
			}
		}
	}
	for _, rel := range pages(t, out) {
		b, _ := os.ReadFile(filepath.Join(out, rel))
		checkMarkup(t, rel, b)
	}
	top, _ := os.ReadFile(filepath.Join(out, "index.html"))
	if !strings.Contains(string(top), "odd &#34;name&#34; &lt;b&gt;") {
		t.Error("the top page does not name the record by its escaped file name")
	}
	checkLinks(t, out)
}

// checkPre fails unless the page of the record file name.md shows its
// Markdown as escaped text (holding want), nothing of it rendered, and
// the site's pages hold no markup of the record's.
func checkPre(t *testing.T, out, name, want string) {
	t.Helper()
	sum := sha256.Sum256([]byte(name + ".md"))
	rp, err := os.ReadFile(filepath.Join(out, "r", "_"+hex.EncodeToString(sum[:12])+".html"))
	if err != nil {
		t.Fatal(err)
	}
	body := string(rp)[strings.Index(string(rp), `<article class="record">`):]
	if !strings.Contains(body, `<p class="unrendered">`) || !strings.Contains(body, "<pre>") || !strings.Contains(body, want) ||
		strings.Contains(body, "<table") || strings.Contains(body, "<h2") || strings.Contains(body, "<img") {
		t.Errorf("the record's Markdown was rendered, or not shown: %.600s", body)
	}
	for _, rel := range pages(t, out) {
		b, _ := os.ReadFile(filepath.Join(out, rel))
		checkMarkup(t, rel, b)
	}
}

// pngBytes is a real PNG file: one of the committed record's plots.
func pngBytes(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(committed, "data", "spec-draft-epyc-2026-11-29", "timeline.png"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
