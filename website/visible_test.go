package website_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/recorder"
)

// TestNoHiddenCharacterReachesThePages: an engine version carrying a
// bidirectional override, ESC and BEL, and a file name carrying an
// override, reach the site's pages (feature rows, steps, the top page's
// unreadable files, the plots' data) as their \uNNNN, never raw.
func TestNoHiddenCharacterReachesThePages(t *testing.T) {
	dir := t.TempDir()
	stem := "spec-draft-epyc-2026-11-29"
	copyRecord(t, committed, stem, dir, stem)
	rec, err := recorder.Load(filepath.Join(dir, stem+".md"))
	if err != nil {
		t.Fatal(err)
	}
	rec.Engine.Version = "llama \u202e1234b\u202c \x1b[31m\x07"
	var md bytes.Buffer
	if err := recorder.Markdown(&md, rec); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, stem+".md"), md.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bidi\u202eDM.exe.md"), []byte("not a record\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "site")
	build(t, dir, out)
	seen := 0
	for _, rel := range pages(t, out) {
		b, _ := os.ReadFile(filepath.Join(out, rel))
		if i := strings.IndexAny(string(b), "\u202e\u202c\x1b\x07"); i >= 0 {
			t.Errorf("%s: a hidden character at %d: %q", rel, i, b[max(0, i-40):min(len(b), i+40)])
		}
		seen += strings.Count(string(b), `\u202e`)
	}
	if seen == 0 {
		t.Error("no page shows the override as \\u202e")
	}
}
