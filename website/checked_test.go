package website_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/internal/synthrecords"
)

// The site shows no number a record only claims: the newest record's
// data block says VALID at 2.5× while its runs say otherwise, so check
// fails it; the front page's row shows the newest record that passes
// check and names the other, and the feature page and the record's own
// page read "fails check" for it, with no ratio.
func TestSiteShowsOnlyCheckedNumbers(t *testing.T) {
	dir := t.TempDir()
	paths, err := synthrecords.Generate(synthrecords.Spec{Source: filepath.Join(committed, "spec-draft-epyc-2026-11-29.md"), Dir: dir, N: 3, Link: true,
		Start: time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC), Noise: 0.01, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(paths[2])
	if err != nil {
		t.Fatal(err)
	}
	forged := regexp.MustCompile(`"ratio": [-0-9.e+]+`).ReplaceAllString(string(b), `"ratio": 2.5`)
	forged = strings.ReplaceAll(forged, `"significant": false`, `"significant": true`)
	if err := os.WriteFile(paths[2], []byte(forged), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "site")
	build(t, dir, out)
	forgedStem := strings.TrimSuffix(filepath.Base(paths[2]), ".md")
	cell := regexp.MustCompile(`<td class="headline" data-record="` + forgedStem + `">(.*?)</td>`)
	for _, rel := range []string{"index.html", "f/spec-draft.html", "f/spec-draft.epyc.html", "r/" + forgedStem + ".html"} {
		page, err := os.ReadFile(filepath.Join(out, rel))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(page), `data-ratio="2.5"`) {
			t.Errorf("%s shows a claimed ratio", rel)
		}
		for _, m := range cell.FindAllStringSubmatch(string(page), -1) {
			if m[1] != "—" {
				t.Errorf("%s: the forged record's headline reads %q", rel, m[1])
			}
		}
		if rel != "index.html" && !strings.Contains(string(page), `<span class="verdict v-none"><span class="mark" aria-hidden="true"></span>fails check</span>`) {
			t.Errorf("%s does not say the forged record fails check", rel)
		}
	}
	top, _ := os.ReadFile(filepath.Join(out, "index.html"))
	for _, want := range []string{strings.TrimSuffix(filepath.Base(paths[1]), ".md") + "</a>", "1 other record(s) fail check, the newest (" + forgedStem + ") among them"} {
		if !strings.Contains(string(top), want) {
			t.Errorf("the front page lacks %q", want)
		}
	}
}
