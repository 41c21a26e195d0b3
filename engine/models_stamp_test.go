package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A model rewritten in place with its modification time set back (and
// its size kept) is hashed again: the cache knows a file by its inode and
// change time too. The planted entry shows the cache is read where the
// file is as it was.
func TestHashCacheSeesARewriteWithItsTimeSetBack(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	model := filepath.Join(t.TempDir(), "model.gguf")
	if err := os.WriteFile(model, []byte("weights-A"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	if err := os.Chtimes(model, old, old); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(model)
	if err != nil {
		t.Fatal(err)
	}
	st, ok := fileStamp(fi)
	if !ok {
		t.Skip("no change time on this system: every file is hashed again")
	}
	planted := "0000000000000000000000000000000000000000000000000000000000000000"
	c := loadHashCache()
	if c.path == "" {
		t.Fatal("no hash cache folder")
	}
	c.entries[model] = hashEntry{Size: fi.Size(), ModTime: fi.ModTime(), stamp: st, Hashed: time.Now().Add(time.Hour).UnixNano(), SHA256: planted}
	b, _ := json.Marshal(c.entries)
	if err := os.MkdirAll(filepath.Dir(c.path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(c.path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	sum := func() string {
		t.Helper()
		files, problems := ModelFiles([]string{"engine", "-m", model})
		if len(files) != 1 {
			t.Fatalf("model files %v, problems %v", files, problems)
		}
		return files[0].SHA256
	}
	if got := sum(); got != planted {
		t.Fatalf("the unchanged file's entry was not used (%s): the test proves nothing", got)
	}
	if err := os.WriteFile(model, []byte("weights-B"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(model, old, old); err != nil {
		t.Fatal(err)
	}
	want := sha256.Sum256([]byte("weights-B"))
	if got := sum(); got != hex.EncodeToString(want[:]) {
		t.Errorf("the rewritten model's hash is %s, want the new content's %x", got, want)
	}
}
