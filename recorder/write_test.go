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

// Reserve claims the data folder through the output folder held open: a
// link planted at outDir/data is refused, and nothing is created where it
// points.
func TestReserveRefusesALinkedDataFolder(t *testing.T) {
	out := t.TempDir()
	elsewhere := t.TempDir()
	if err := os.Symlink(elsewhere, filepath.Join(out, "data")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Reserve(out, "spec-x", "h", "2026-12-02"); err == nil {
		t.Error("Reserve followed a linked data folder")
	}
	if ents, _ := os.ReadDir(elsewhere); len(ents) != 0 {
		t.Errorf("created where the link points: %v", ents)
	}
	// Without the link it claims -2 when the first name is taken, a
	// dangling link at the record's name included.
	out = t.TempDir()
	if err := os.Symlink(filepath.Join(elsewhere, "gone"), filepath.Join(out, "spec-x-h-2026-12-02.md")); err != nil {
		t.Fatal(err)
	}
	rec, dir, err := Reserve(out, "spec-x", "h", "2026-12-02")
	if err != nil || filepath.Base(rec) != "spec-x-h-2026-12-02-2.md" || filepath.Base(dir) != "spec-x-h-2026-12-02-2" {
		t.Errorf("Reserve = %s, %s, %v", rec, dir, err)
	}
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
		t.Errorf("data folder: %v", err)
	}
}
