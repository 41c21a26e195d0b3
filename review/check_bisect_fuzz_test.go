package review

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// FuzzCheckBisect is the bisect summary's checker end to end on any text
// as a summary beside its data folder (builds/ and steps/, empty): it
// never panics, whatever the steps, campaigns, commits, builds and files
// say, and it ends, a linked record that is a summary refused.
func FuzzCheckBisect(f *testing.F) {
	stem := "bisect-x-h-2026-01-02"
	for _, b := range []*schema.Bisect{
		craftedSummary("data/"+stem, "data/"+stem+"/steps/"+stem+".md", 3, 2),
		craftedSummary("data/"+stem, "data/"+stem+"/steps/r.md", 1, 0),
		{Schema: schema.BisectSchema, DataDir: "data/" + stem, Pending: &schema.BisectStep{N: 1, Commit: "b"}},
	} {
		var md bytes.Buffer
		if err := recorder.BisectMarkdown(&md, b); err != nil {
			f.Fatal(err)
		}
		f.Add(md.Bytes())
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		dir := t.TempDir()
		for _, sub := range []string{"builds", "steps"} {
			if err := os.MkdirAll(filepath.Join(dir, "data", stem, sub), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		p := filepath.Join(dir, stem+".md")
		if err := os.WriteFile(p, src, 0o644); err != nil {
			t.Fatal(err)
		}
		// The summary is also the record its campaigns may link.
		if err := os.WriteFile(filepath.Join(dir, "data", stem, "steps", stem+".md"), src, 0o644); err != nil {
			t.Fatal(err)
		}
		Check(p)
	})
}
