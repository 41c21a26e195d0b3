package plots

import (
	"os"
	"path/filepath"
	"testing"
)

// WriteAll writes each figure create-exclusive and renames it into place:
// a link planted at a figure's name is replaced, its target left as it
// was.
func TestWriteAllNeverFollowsAPlantedLink(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(outside, []byte("precious"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "timeline.png")); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteAll(dir, fakeCampaign(testArms, 5), testSpec()); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(outside); string(b) != "precious" {
		t.Errorf("the link's target was written (%d bytes)", len(b))
	}
	if fi, err := os.Lstat(filepath.Join(dir, "timeline.png")); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("timeline.png is not a regular file: %v", err)
	}
}
