package recorder

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// A record and a bisect summary are written through safefs: a link planted
// at the path is replaced by the file, its target left as it was.
func TestRecordWritesNeverFollowAPlantedLink(t *testing.T) {
	for _, name := range []string{"record", "bisect"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "x.md")
			outside := filepath.Join(t.TempDir(), "victim")
			if err := os.WriteFile(outside, []byte("precious"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, path); err != nil {
				t.Fatal(err)
			}
			var err error
			if name == "record" {
				err = WriteFile(path, fixedRecord(schema.Inconclusive))
			} else {
				err = WriteBisectFile(path, &schema.Bisect{Schema: schema.BisectSchema, Feature: "x", Hardware: "h", Date: "2026-01-02", Good: "g", Bad: "b"})
			}
			if err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(outside); string(b) != "precious" {
				t.Errorf("the link's target was written (%d bytes)", len(b))
			}
			fi, err := os.Lstat(path)
			if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o644 {
				t.Errorf("%s: %v, %v", path, fi, err)
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 1 {
				t.Errorf("temporary files left: %v", ents)
			}
		})
	}
}
