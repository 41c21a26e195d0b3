package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/decodebench/decodebench/internal/safefs"
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
	planted := "0000000000000000000000000000000000000000000000000000000000000000"
	c := loadHashCache()
	if c.path == "" {
		t.Fatal("no hash cache folder")
	}
	c.entries[model] = trustedEntry(t, model, planted)
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

// trustedEntry is a hash-cache entry for the file at path as it is now,
// one sum would trust (hashed, by its word, after the file last changed),
// stating sha256.
func trustedEntry(t *testing.T, path, sha256 string) hashEntry {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	id, err := safefs.IdentityOf(f)
	if err != nil {
		t.Fatal(err)
	}
	return hashEntry{ID: id, Hashed: time.Now().Add(time.Hour).UnixNano(), SHA256: sha256}
}
