package harness

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A data folder whose campaign.json this user's decodebench wrote is its
// own, by whichever path it is reached and after the campaign moved it
// (a failed try's folder to scratch/); a copy of it, or the same folder
// with its state changed, is not.
func TestOwned(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(home, ".cache"))
	root := t.TempDir()
	dir := filepath.Join(root, "data", "x")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if Owned(dir) {
		t.Fatal("a folder with no state is owned")
	}
	if err := writeStateIn(heldDir(t, dir), state{ScenarioPath: "/s.yaml", ScenarioHash: "h"}); err != nil {
		t.Fatal(err)
	}
	if !Owned(dir) {
		t.Fatal("the folder this user's campaign wrote is not owned")
	}
	link := filepath.Join(root, "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	if !Owned(link) {
		t.Error("reached through a link, the folder is not owned")
	}
	copied := filepath.Join(root, "copy")
	if err := os.CopyFS(copied, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	if Owned(copied) {
		t.Error("a copy of the folder is owned")
	}
	moved := filepath.Join(root, "scratch", "x")
	if err := os.MkdirAll(filepath.Dir(moved), 0o755); err != nil {
		t.Fatal(err)
	}
	note := ownedEntry(dir)
	if err := os.Rename(dir, moved); err != nil {
		t.Fatal(err)
	}
	moveOwned(note, moved)
	if !Owned(moved) {
		t.Error("the folder the campaign moved is not owned")
	}
	if err := os.WriteFile(filepath.Join(moved, stateFile), []byte(`{"scenario_path": "/other.yaml"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if Owned(moved) {
		t.Error("the folder whose campaign.json changed is owned")
	}
}

// The notes are pruned: one last written before ownedKeep is removed
// (its campaign is then asked about, as a received one), a recent one and
// a file that is not a note are kept.
func TestOwnedNotesArePruned(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "00112233445566778899aabbccddeeff")
	recent := filepath.Join(dir, "ffeeddccbbaa99887766554433221100")
	other := filepath.Join(dir, "README")
	for _, f := range []string{old, recent, other} {
		if err := os.WriteFile(f, []byte("x\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	long := time.Now().Add(-ownedKeep - time.Hour)
	for _, f := range []string{old, other} {
		if err := os.Chtimes(f, long, long); err != nil {
			t.Fatal(err)
		}
	}
	pruneOwned(dir, time.Now().Add(-ownedKeep))
	for f, want := range map[string]bool{old: false, recent: true, other: true} {
		if _, err := os.Stat(f); (err == nil) != want {
			t.Errorf("%s: kept %v, want %v", filepath.Base(f), err == nil, want)
		}
	}
}
