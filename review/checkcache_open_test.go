package review

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An entry planted in a cache folder inside a repository would make check
// say ok for a record that fails: such a folder (this user's own, 0755, as
// a checkout makes it) is refused, and the record is checked afresh.
func TestCheckCacheRefusesRepositoryFolder(t *testing.T) {
	paths := generated(t, 1)
	flipLastDigit(t, paths[0], "| 1 | 1 |")
	repo := t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	committed := filepath.Join(repo, ".cache", "decodebench", "check")
	if err := os.MkdirAll(committed, 0o755); err != nil {
		t.Fatal(err)
	}
	// The planted entry: this record's key, no problems.
	planted := &CheckCache{Dir: committed}
	CheckAll(paths, planted)
	entries := entryFiles(committed)
	if len(entries) != 1 {
		t.Fatalf("%d entries", len(entries))
	}
	b, err := os.ReadFile(entries[0])
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(b), `"problems":`)
	if err := os.WriteFile(entries[0], []byte(string(b[:i])+`"problems":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := CheckAll(paths, planted)[0]; !r.Cached || len(r.Problems) != 0 {
		t.Fatalf("the planted entry is not what a cache there would answer: %+v", r)
	}

	cache, err := OpenCheckCache(committed)
	if err == nil || !strings.Contains(err.Error(), "git work tree") {
		t.Fatalf("a cache folder in a repository: %v, %v", cache, err)
	}
	if r := CheckAll(paths, cache)[0]; r.Cached || len(r.Problems) == 0 {
		t.Errorf("the failing record passes: %+v", r)
	}
	// Without a user cache folder there is none, and no fallback.
	t.Setenv("HOME", "")
	t.Setenv("XDG_CACHE_HOME", "")
	t.Chdir(repo)
	if cache, err := OpenCheckCache(""); err == nil {
		t.Errorf("with no user cache folder: %s", cache.Dir)
	}
}
