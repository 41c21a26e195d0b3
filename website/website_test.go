package website_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/review"
	"github.com/decodebench/decodebench/website"
)

const committed = "../docs/benchmark_results"

func build(t *testing.T, dir, out string) *website.Result {
	t.Helper()
	res, err := website.Build(website.Options{Dir: dir, Out: out, Cache: &review.CheckCache{Dir: t.TempDir(), Identity: "test"}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// pages are the site's HTML files, relative to it.
func pages(t *testing.T, out string) []string {
	t.Helper()
	var ps []string
	err := filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".html") {
			rel, _ := filepath.Rel(out, p)
			ps = append(ps, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

var (
	linkAttr = regexp.MustCompile(`(?:href|src)="([^"]*)"`)
	idAttr   = regexp.MustCompile(` id="([^"]*)"`)
)

// checkLinks fails for a link of a page that leads to no file of the
// site or to no element of its page; links to http(s) pages are left.
func checkLinks(t *testing.T, out string) {
	t.Helper()
	ids := map[string]map[string]bool{}
	idsOf := func(rel string) map[string]bool {
		if m, ok := ids[rel]; ok {
			return m
		}
		b, _ := os.ReadFile(filepath.Join(out, rel))
		m := map[string]bool{}
		for _, id := range idAttr.FindAllSubmatch(b, -1) {
			m[string(id[1])] = true
		}
		ids[rel] = m
		return m
	}
	for _, rel := range pages(t, out) {
		b, err := os.ReadFile(filepath.Join(out, rel))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range linkAttr.FindAllSubmatch(b, -1) {
			link := strings.ReplaceAll(string(m[1]), "&amp;", "&")
			if strings.HasPrefix(link, "https://") || strings.HasPrefix(link, "http://") {
				continue
			}
			target, frag, _ := strings.Cut(link, "#")
			if target == "" {
				target = rel
			} else {
				target = filepath.ToSlash(filepath.Join(filepath.Dir(rel), target))
			}
			if _, err := os.Stat(filepath.Join(out, target)); err != nil {
				t.Errorf("%s: link %q leads to no file of the site", rel, link)
				continue
			}
			if frag != "" && !idsOf(target)[frag] {
				t.Errorf("%s: link %q: %s has no element %q", rel, link, target, frag)
			}
		}
	}
}

// The committed records give a site of every record, feature and list
// page; every link leads to a file of it; every page forbids inline
// script and other origins; and a second build writes no byte.
func TestCommittedRecords(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	res := build(t, committed, out)
	recs, _, err := review.LoadHistory(committed)
	if err != nil {
		t.Fatal(err)
	}
	features := map[string]bool{}
	for _, r := range recs {
		features[r.Rec.Feature] = true
		if _, err := os.Stat(filepath.Join(out, "r", r.Stem+".html")); err != nil {
			t.Errorf("no page for %s: %v", r.Stem, err)
		}
	}
	for f := range features {
		if _, err := os.Stat(filepath.Join(out, "f", f+".html")); err != nil {
			t.Errorf("no page for feature %s: %v", f, err)
		}
	}
	ps := pages(t, out)
	if res.Pages != len(ps) {
		t.Errorf("the build counts %d pages, the site has %d", res.Pages, len(ps))
	}
	for _, rel := range ps {
		b, _ := os.ReadFile(filepath.Join(out, rel))
		if !bytes.Contains(b, []byte(`content="default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'"`)) {
			t.Errorf("%s: no Content-Security-Policy", rel)
		}
	}
	// The headline and the plotted ratios are the verdicts' (round by
	// round), not ratios of medians, which the pages called them.
	for _, rel := range []string{"index.html", filepath.Join("f", "spec-draft.html")} {
		b, _ := os.ReadFile(filepath.Join(out, rel))
		if bytes.Contains(b, []byte("ratio of medians")) || !bytes.Contains(b, []byte("as its verdict states it")) {
			t.Errorf("%s does not say which ratio it shows", rel)
		}
	}
	checkLinks(t, out)
	again := build(t, committed, out)
	if len(again.Written) != 0 || len(again.Removed) != 0 {
		t.Errorf("a second build wrote %v and removed %v", again.Written, again.Removed)
	}
}

// Only a new or empty folder, or a site written before, is written into:
// a folder of a reader's own is left as it is.
func TestRefusesAFolderThatIsNotASite(t *testing.T) {
	out := t.TempDir()
	mine := filepath.Join(out, "notes.txt")
	if err := os.WriteFile(mine, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := website.Build(website.Options{Dir: committed, Out: out})
	if err == nil || !strings.Contains(err.Error(), website.Marker) {
		t.Fatalf("built into a folder of someone's own: %v", err)
	}
	ents, _ := os.ReadDir(out)
	if len(ents) != 1 {
		t.Errorf("the folder now holds %d entries", len(ents))
	}
}

// A records folder that is not one is an error, and writes nothing.
func TestRefusesARecordsFolderThatIsNone(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	for _, dir := range []string{filepath.Join(t.TempDir(), "missing"), filepath.Join(committed, "README.md")} {
		if _, err := website.Build(website.Options{Dir: dir, Out: out}); err == nil || !strings.Contains(err.Error(), "records folder") {
			t.Errorf("%s: %v", dir, err)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("the site's folder was made")
	}
}

// A site's folder that is the records folder, or holds it (in one of its
// own folders, or through a link), is refused before anything is written
// or pruned: the records stay.
func TestRefusesAnOutThatHoldsTheRecords(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	build(t, committed, out)
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(filepath.Join(out, "r"), link); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ records, dir string }{
		{filepath.Join(out, "assets"), filepath.Join(out, "assets")},
		{filepath.Join(out, "r", "recs"), filepath.Join(out, "r", "recs")},
		{filepath.Join(out, "r", "recs2"), filepath.Join(link, "recs2")},
		{out, out},
	} {
		copyRecord(t, committed, "spec-draft-epyc-2026-11-29", c.records, "spec-draft-epyc-2026-11-29")
		_, err := website.Build(website.Options{Dir: c.dir, Out: out})
		if err == nil || !strings.Contains(err.Error(), "holds it") {
			t.Errorf("records in %s: %v", c.dir, err)
		}
		if _, err := os.Stat(filepath.Join(c.records, "spec-draft-epyc-2026-11-29.md")); err != nil {
			t.Errorf("records in %s: the record went: %v", c.dir, err)
		}
	}
}

// No two pages' names differ by case alone: a record copied under a name
// in capitals gets a page of its own where the site is unpacked on a file
// system that folds case.
func TestNoTwoPagesDifferByCase(t *testing.T) {
	dir := t.TempDir()
	copyRecord(t, committed, "spec-draft-epyc-2026-11-29", dir, "spec-draft-epyc-2026-11-29")
	copyRecord(t, committed, "spec-draft-epyc-2026-11-29-2", dir, "SPEC-DRAFT-epyc-2026-11-29")
	out := filepath.Join(t.TempDir(), "site")
	build(t, dir, out)
	seen := map[string]string{}
	for _, p := range pages(t, out) {
		if q, ok := seen[strings.ToLower(p)]; ok {
			t.Errorf("pages %s and %s differ by case alone", q, p)
		}
		seen[strings.ToLower(p)] = p
	}
	checkLinks(t, out)
}

// A record that is gone takes its page with it; a file of the reader's
// own beside the site's folders stays.
func TestPrunesThePagesOfRecordsThatAreGone(t *testing.T) {
	dir := t.TempDir()
	copyRecord(t, committed, "spec-draft-epyc-2026-11-29", dir, "spec-draft-epyc-2026-11-29")
	copyRecord(t, committed, "spec-draft-epyc-2026-11-29-2", dir, "spec-draft-epyc-2026-11-29-2")
	out := filepath.Join(t.TempDir(), "site")
	build(t, dir, out)
	mine := filepath.Join(out, "CNAME")
	if err := os.WriteFile(mine, []byte("example.org\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "spec-draft-epyc-2026-11-29-2.md")); err != nil {
		t.Fatal(err)
	}
	res := build(t, dir, out)
	if !slices.Contains(res.Removed, "r/spec-draft-epyc-2026-11-29-2.html") {
		t.Errorf("removed %v, want the gone record's page", res.Removed)
	}
	if _, err := os.Stat(mine); err != nil {
		t.Errorf("the reader's own file went: %v", err)
	}
	checkLinks(t, out)
}

// copyRecord copies a record and its data folder from one records folder
// to another, as name.
func copyRecord(t *testing.T, from, stem, to, name string) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(from, stem+".md"))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := recorder.Parse(bytes.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(to, filepath.FromSlash(rec.DataDir))
	if _, err := os.Stat(data); err != nil {
		if err := os.CopyFS(data, os.DirFS(filepath.Join(from, filepath.FromSlash(rec.DataDir)))); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(to, name+".md"), src, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A feature of several hardware shows the table of rows per hardware a
// computation hands the page (Options.Regimes), every cell escaped; a
// feature of one hardware shows none.
func TestRegimesTableOfAFeatureOfSeveralHardware(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	asked := map[string]bool{}
	_, err := website.Build(website.Options{Dir: committed, Out: out, Regimes: func(feature string, f *review.Fleet) *website.HardwareTable {
		asked[feature] = true
		table := &website.HardwareTable{Caption: "Regimes of " + feature, Columns: []string{"regime"}}
		for _, row := range f.FeatureRows(feature) {
			table.Rows = append(table.Rows, website.HardwareRow{Hardware: row.Hardware, Cells: []string{"<b>" + row.Latest().Stem + "</b>"}})
		}
		return table
	}})
	if err != nil {
		t.Fatal(err)
	}
	several, _ := os.ReadFile(filepath.Join(out, "f", "identity-chaotic.html"))
	for _, want := range []string{`<section id="regimes">`, "Regimes of identity-chaotic", "<td><code>epyc</code></td><td>&lt;b&gt;identity-chaotic-epyc-2026-11-29&lt;/b&gt;</td>",
		"<td><code>h200</code></td>"} {
		if !strings.Contains(string(several), want) {
			t.Errorf("identity-chaotic's page has no %q", want)
		}
	}
	one, err := os.ReadFile(filepath.Join(out, "f", "cli-threads.html"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(one), `id="regimes"`) {
		t.Error("a feature of one hardware shows a regimes table")
	}
	if !asked["identity-chaotic"] {
		t.Error("the regimes were not asked for")
	}
}

// website.Regimes is the regime table of the committed identity-chaotic
// records: one row for epyc and one for h200, each with its record, the
// draft arm's ratio with its interval, and the conclusion in the caption.
func TestRegimesOfTheCommittedRecords(t *testing.T) {
	f, err := review.ReadFleet(committed, nil)
	if err != nil {
		t.Fatal(err)
	}
	tb := website.Regimes("identity-chaotic", f)
	if tb == nil || len(tb.Rows) != 2 || tb.Rows[0].Hardware != "epyc" || tb.Rows[1].Hardware != "h200" {
		t.Fatalf("regimes %+v", tb)
	}
	if !strings.Contains(tb.Caption, "no regime dependence shown across") || tb.Rows[0].Cells[0] != "identity-chaotic-epyc-2026-11-29" || !strings.HasPrefix(tb.Rows[1].Cells[2], "0.357× [") {
		t.Errorf("regimes %+v", tb)
	}
	if website.Regimes("cli-threads", f) != nil {
		t.Error("a feature of one hardware has a regime table")
	}
}
