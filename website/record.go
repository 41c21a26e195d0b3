package website

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"path"
	"path/filepath"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"

	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/internal/workers"
	"github.com/decodebench/decodebench/review"
	"github.com/decodebench/decodebench/schema"
)

// markdown renders a record: GitHub's tables (aligned by attribute: the
// pages allow no inline style) and the like, headings with ids, XHTML. Raw HTML in a record is left out (goldmark's default), and
// no attribute syntax is read, so a record sets no attribute of its own.
var markdown = goldmark.New(
	goldmark.WithExtensions(extension.Linkify, extension.Strikethrough, extension.TaskList,
		extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute))),
	goldmark.WithParserOptions(parser.WithAutoHeadingID()),
	goldmark.WithRendererOptions(html.WithXHTML()),
)

// recordPage is a record's or a bisect summary's page.
type recordPage struct {
	page
	Feature, FeatureHref string
	Hardware, HWHref     string
	Verdict              *verdictView
	Problems             problemsView
	Body                 template.HTML
}

// source is one Markdown file of the records folder to render, with
// the data folder its images may come from and the files the record
// names there with their sha256.
type source struct {
	file    string
	page    recordPage
	dataDir string
	files   []schema.FileSum
}

// writeRecordPages renders every record and bisect summary of the fleet,
// on every CPU at once.
func writeRecordPages(o *out, dir string, f *review.Fleet, n *names) error {
	var srcs []source
	for _, feature := range f.Features {
		for _, r := range f.Records[feature] {
			v := verdictOf(r)
			stem := visibleFormat(r.Stem)
			p := recordPage{page: page{Title: stem + " · decodebench records", Root: "../",
				Crumbs: []crumb{{Href: "../" + n.features[feature], Text: feature}, {Text: stem}}},
				Feature: feature, FeatureHref: "../" + n.features[feature], Hardware: r.Rec.Hardware,
				HWHref: "../" + n.features[feature] + "#" + hardwareID(r.Rec.Hardware), Verdict: &v, Problems: problemsOf(r.Problems)}
			srcs = append(srcs, source{file: r.File, page: p, dataDir: r.Rec.DataDir, files: r.Rec.Files})
		}
	}
	for _, b := range f.Bisects {
		stem := visibleFormat(strings.TrimSuffix(b.File, ".md"))
		p := recordPage{page: page{Title: stem + " · decodebench records", Root: "../", Crumbs: []crumb{{Text: "bisection " + stem}}},
			Problems: problemsOf(b.Problems)}
		if fp, ok := n.features[b.Summary.Feature]; ok {
			p.Feature, p.FeatureHref = b.Summary.Feature, "../"+fp
		}
		srcs = append(srcs, source{file: b.File, page: p, dataDir: b.Summary.DataDir, files: b.Summary.Files})
	}
	errs := make([]error, len(srcs))
	workers.ForEach(len(srcs), func(i int) { errs[i] = writeRecordPage(o, dir, srcs[i], n) })
	return errors.Join(errs...)
}

// MaxRenderedRecord is the largest record whose Markdown a page renders
// as HTML (the largest committed record is 89 KB). goldmark's cost grows
// faster than its input on some texts (emphasis delimiters, unclosed link
// openers, nested lists: 378 KB of `*a_` took past a minute) and its
// memory reaches hundreds of times a wide table's bytes, so a larger
// record, and any record check finds a problem in (its Markdown is then
// not the recorder's, which check re-renders byte for byte), is shown as
// escaped preformatted text, linear in its size.
const MaxRenderedRecord = 256 << 10

// maxRendering is how many record pages render Markdown at once, whatever
// the number of CPUs: a page's parse tree can hold about 230 times its
// record (a table of 3.9 MB peaked at 913 MB).
const maxRendering = 4

var rendering = make(chan struct{}, maxRendering)

// renderUnchecked renders a record check finds a problem in (tests of
// the rewriter, which set it in export_test.go).
var renderUnchecked = false

func writeRecordPage(o *out, dir string, s source, n *names) error {
	src, err := safefs.ReadFile(filepath.Join(dir, s.file), safefs.MaxRecord)
	if err != nil {
		return err
	}
	if why := unrendered(s, len(src)); why != "" {
		s.page.Body = template.HTML(`<p class="unrendered">` + template.HTMLEscapeString(why) + `</p>` + "\n<pre>" +
			template.HTMLEscapeString(visibleLines(string(src))) + "</pre>")
		return render(o, n.files[s.file], "record", s.page)
	}
	rendering <- struct{}{}
	body, err := renderMarkdown(o, dir, s, n, src)
	<-rendering
	if err != nil {
		return err
	}
	s.page.Body = template.HTML(body)
	return render(o, n.files[s.file], "record", s.page)
}

// unrendered says why a record's Markdown is shown as its text, or ""
// when it is rendered.
func unrendered(s source, size int) string {
	switch {
	case s.page.Problems.Bad && !renderUnchecked:
		return "check finds a problem in this record, so its Markdown is shown as it is, not rendered."
	case size > MaxRenderedRecord:
		return fmt.Sprintf("This record is %d bytes, more than the %d the site renders, so its Markdown is shown as it is.", size, MaxRenderedRecord)
	}
	return ""
}

func renderMarkdown(o *out, dir string, s source, n *names, src []byte) (string, error) {
	doc := markdown.Parser().Parse(text.NewReader(src))
	rw := rewriter{o: o, dir: dir, s: s, n: n}
	if err := rw.rewrite(doc, src); err != nil {
		return "", err
	}
	var body bytes.Buffer
	if err := markdown.Renderer().Render(&body, src, doc); err != nil {
		return "", err
	}
	return visibleLines(body.String()), nil
}

// rewriter makes a record's links and images the site's: a link to
// another record, to the index or to a feature's index page leads to its
// page here; a link to an http(s) page stays, marked nofollow and sending
// no referrer; an anchor of the page stays; any other link (a data
// folder's file, another scheme) becomes its text. An image is shown
// only when it is a PNG file of the record's data folder whose sha256
// the record names (copied into the site by content); any other becomes
// its text.
type rewriter struct {
	o   *out
	dir string
	s   source
	n   *names
}

func (rw rewriter) rewrite(doc ast.Node, src []byte) error {
	var links, images []ast.Node
	err := ast.Walk(doc, func(node ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch node.(type) {
		case *ast.Link, *ast.AutoLink:
			links = append(links, node)
		case *ast.Image:
			images = append(images, node)
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		return err
	}
	for _, node := range links {
		switch l := node.(type) {
		case *ast.Link:
			if dest, ok := rw.linkTarget(string(l.Destination)); ok {
				l.Destination = []byte(dest)
				if isWeb(dest) {
					l.SetAttributeString("rel", []byte("nofollow noopener noreferrer"))
				}
			} else {
				unwrap(l)
			}
		case *ast.AutoLink:
			if u := string(l.URL(src)); l.AutoLinkType != ast.AutoLinkURL || !isWeb(u) {
				replace(l, u)
			} else {
				l.SetAttributeString("rel", []byte("nofollow noopener noreferrer"))
			}
		}
	}
	for _, node := range images {
		img := node.(*ast.Image)
		alt := string(nodeText(img, src))
		dest, err := rw.image(string(img.Destination))
		if err != nil || dest == "" {
			replace(img, "[image not shown: "+alt+"]")
			continue
		}
		img.Destination = []byte(dest)
	}
	return nil
}

// linkTarget is where a record's link leads on the site; ok false when
// it leads nowhere there.
func (rw rewriter) linkTarget(dest string) (string, bool) {
	switch {
	case strings.HasPrefix(dest, "#"):
		return dest, len(dest) > 1
	case isWeb(dest):
		return dest, true
	case strings.Contains(dest, ":") || strings.HasPrefix(dest, "/") || strings.HasPrefix(dest, "\\"):
		return "", false
	}
	p, _, _ := strings.Cut(dest, "#")
	p = path.Clean(p)
	if page, ok := rw.n.files[p]; ok {
		return "../" + page, true
	}
	if p == review.IndexFile {
		return "../index.html", true
	}
	if feature, ok := strings.CutPrefix(strings.TrimSuffix(p, ".md"), "index/"); ok {
		if page, ok := rw.n.features[feature]; ok {
			return "../" + page, true
		}
	}
	return "", false
}

func isWeb(u string) bool {
	l := strings.ToLower(u)
	return (strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "http://")) && len(l) > len("https://")
}

// unwrap puts a link's children in its place.
func unwrap(l ast.Node) {
	parent := l.Parent()
	for c := l.FirstChild(); c != nil; {
		next := c.NextSibling()
		parent.InsertBefore(parent, l, c)
		c = next
	}
	parent.RemoveChild(parent, l)
}

// replace puts a text in a node's place.
func replace(node ast.Node, s string) {
	node.Parent().ReplaceChild(node.Parent(), node, ast.NewString([]byte(s)))
}

// nodeText is the text of a node's children.
func nodeText(node ast.Node, src []byte) []byte {
	var b bytes.Buffer
	_ = ast.Walk(node, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			switch t := c.(type) {
			case *ast.Text:
				b.Write(t.Segment.Value(src))
			case *ast.String:
				b.Write(t.Value)
			}
		}
		return ast.WalkContinue, nil
	})
	return b.Bytes()
}
