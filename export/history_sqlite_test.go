package export

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The SQLite export creates no side file by name beside its temporary
// database (its journal is in memory), and is renamed over the target: a
// link there is replaced, its target left as it was.
func TestExportSQLiteNeverFollowsAPlantedLink(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "history.sqlite")
	outside := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(outside, []byte("precious"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, path); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() { // watch the folder for side files while the export runs
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				if strings.HasSuffix(e.Name(), "-journal") || strings.HasSuffix(e.Name(), "-wal") {
					seen[e.Name()] = true
				}
			}
		}
	}()
	err := HistorySQLite(path, nil)
	close(stop)
	<-done
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(outside); string(b) != "precious" {
		t.Errorf("the planted link's target was written: %q", b)
	}
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("%s is not a regular file: %v", path, err)
	}
	if len(seen) > 0 {
		t.Errorf("side files made by name: %v", seen)
	}
}
