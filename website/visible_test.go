package website_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/review"
	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/website"
)

// TestNoHiddenCharacterReachesThePages: a record's engine version and CPU
// (a record that still passes check) carrying a bidirectional override, a zero-width
// space, ESC and BEL, a bisect summary's date and feature carrying them,
// and a file name carrying an override, reach the site's pages (feature
// rows, the regime table, steps, the top page's bisects and unreadable
// files, the plots' data) as their \uNNNN, never raw: no page holds a
// control or format character but a line break or a tab.
func TestNoHiddenCharacterReachesThePages(t *testing.T) {
	const hidden = "\u202e1234b\u202c\u200b \x1b[31m\x07"
	dir := t.TempDir()
	for _, stem := range []string{"spec-draft-epyc-2026-11-29", "identity-chaotic-epyc-2026-11-29", "identity-chaotic-h200-2026-12-02"} {
		copyRecord(t, committed, stem, dir, stem)
		rec, err := recorder.Load(filepath.Join(dir, stem+".md"))
		if err != nil {
			t.Fatal(err)
		}
		rec.Engine.Version = "llama " + hidden
		rec.Machine.CPUModel += hidden
		var md bytes.Buffer
		if err := recorder.Markdown(&md, rec); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, stem+".md"), md.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var bisect bytes.Buffer
	if err := recorder.BisectMarkdown(&bisect, &schema.Bisect{Schema: schema.BisectSchema, Feature: "spec-draft" + hidden, Hardware: "epyc", Date: "2026-12-07" + hidden}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bisect-spec-draft-epyc-2026-12-07.md"), bisect.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bidi\u202eDM.exe.md"), []byte("not a record\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "site")
	if _, err := website.Build(website.Options{Dir: dir, Out: out, Cache: &review.CheckCache{Dir: t.TempDir(), Identity: "test"}, Regimes: website.Regimes}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "f", "identity-chaotic.html")); !strings.Contains(string(b), "Regimes of scenario") {
		t.Error("the feature page has no regime table")
	}
	seen := 0
	for _, rel := range pages(t, out) {
		b, _ := os.ReadFile(filepath.Join(out, rel))
		if i := strings.IndexFunc(string(b), func(r rune) bool {
			return r != '\n' && r != '\t' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r))
		}); i >= 0 {
			t.Errorf("%s: a hidden character at %d: %q", rel, i, b[max(0, i-40):min(len(b), i+40)])
		}
		seen += strings.Count(string(b), `\u202e`)
	}
	if seen == 0 {
		t.Error("no page shows the override as \\u202e")
	}
}
