package review

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// setUsed sets the record's entries (in cache) to have been last used at
// at: every one, or with fresh only those marked used within the last
// minute.
func setUsed(t *testing.T, cache *CheckCache, path string, at time.Time, fresh ...bool) {
	t.Helper()
	abs, _ := filepath.Abs(path)
	r := recordDirName(abs)
	files, _ := filepath.Glob(filepath.Join(cache.Dir, r[:2], r, "*.json"))
	if len(files) == 0 {
		t.Fatalf("no entries for %s", path)
	}
	for _, f := range files {
		if st, err := os.Stat(f); len(fresh) > 0 && err == nil && time.Since(st.ModTime()) > time.Minute {
			continue
		}
		if err := os.Chtimes(f, at, at); err != nil {
			t.Fatal(err)
		}
	}
}

// Prune keeps each record's most recently used entries, drops the rest,
// the entries and memo of a record that is gone, what was not used for
// MaxAge and, over MaxBytes, the least recently used; it leaves files it
// did not write alone, and what it keeps still answers.
func TestCheckCachePrune(t *testing.T) {
	paths := generated(t, 3)
	cache := &CheckCache{Dir: t.TempDir()}
	now := time.Now()
	for i, id := range []string{"build-a", "build-b", "build-c"} {
		c := &CheckCache{Dir: cache.Dir, Identity: id}
		CheckAll(paths, c)
		for _, p := range paths {
			setUsed(t, c, p, now.Add(time.Duration(i-3)*time.Hour), true) // build-c most recent
		}
	}
	if n := len(entryFiles(cache.Dir)); n != 9 {
		t.Fatalf("%d entries, want 9", n)
	}
	foreign := []string{filepath.Join(cache.Dir, "notes.txt"), filepath.Join(cache.Dir, "ab", "keep.txt")}
	for _, f := range foreign {
		os.MkdirAll(filepath.Dir(f), 0o755)
		if err := os.WriteFile(f, []byte("mine"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stale := filepath.Join(cache.Dir, "ab", strings.Repeat("0", 64)+".json") // the v1 layout
	os.WriteFile(stale, []byte("{}"), 0o644)

	res := cache.Prune(now, PrunePolicy{KeepPerRecord: 2, MaxAge: 30 * 24 * time.Hour})
	if res.Removed[PruneSuperseded] != 3 || res.Removed[PruneStale] != 1 || len(entryFiles(cache.Dir)) != 6 {
		t.Fatalf("keep 2 a record: removed %v, %d entries left, want 3 superseded, 1 stale, 6 left", res.Removed, len(entryFiles(cache.Dir)))
	}
	c := &CheckCache{Dir: cache.Dir, Identity: "build-c"}
	if n := cachedCount(CheckAll(paths, c)); n != 3 {
		t.Fatalf("after pruning, the most recent build's entries answered %d of 3", n)
	}
	if n := cachedCount(CheckAll(paths, &CheckCache{Dir: cache.Dir, Identity: "build-a"})); n != 0 {
		t.Fatalf("the oldest build's entries answered %d after they were pruned", n)
	}

	// A record and its data folder deleted: its entries (build-c's,
	// build-b's and build-a's new one) and its memo go.
	gone := paths[2]
	os.RemoveAll(filepath.Join(filepath.Dir(gone), "data", stemOf(gone)))
	os.Remove(gone)
	memos, _ := filepath.Glob(filepath.Join(cache.Dir, "files", "*", "*.json"))
	res = cache.Prune(now, PrunePolicy{KeepPerRecord: 2})
	after, _ := filepath.Glob(filepath.Join(cache.Dir, "files", "*", "*.json"))
	if res.Removed[PruneGone] != 4 || len(after) != len(memos)-1 {
		t.Fatalf("a deleted record: removed %v, memos %d → %d; want its 3 entries and 1 memo gone", res.Removed, len(memos), len(after))
	}

	// Unused for longer than MaxAge.
	setUsed(t, cache, paths[0], now.Add(-40*24*time.Hour))
	res = cache.Prune(now, PrunePolicy{KeepPerRecord: 2, MaxAge: 30 * 24 * time.Hour})
	if res.Removed[PruneUnused] != 2 {
		t.Fatalf("40 days unused: removed %v, want 2 unused", res.Removed)
	}

	// Over size: the least recently used go first.
	setUsed(t, cache, paths[1], now.Add(-2*time.Hour))
	res = cache.Prune(now, PrunePolicy{MaxBytes: 1})
	if res.KeptBytes > 1 || res.Removed[PruneOverSize] == 0 {
		t.Fatalf("over size: %+v", res)
	}
	for _, f := range foreign {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("a file the cache did not write was removed: %v", err)
		}
	}
}

// A hit marks its entry used, so the entries a check still reads are the
// ones pruning keeps.
func TestCheckCacheHitMarksUsed(t *testing.T) {
	paths := generated(t, 1)
	cache := &CheckCache{Dir: t.TempDir(), Identity: "build-a"}
	CheckAll(paths, cache)
	old := time.Now().Add(-5 * time.Hour)
	setUsed(t, cache, paths[0], old)
	if r := CheckAll(paths, cache)[0]; !r.Cached {
		t.Fatal("not answered from the cache")
	}
	st, err := os.Stat(entryFiles(cache.Dir)[0])
	if err != nil {
		t.Fatal(err)
	}
	if !st.ModTime().After(old.Add(time.Hour)) {
		t.Errorf("a hit left the entry marked used at %v", st.ModTime())
	}
}

// MaybePrune prunes at most once a day.
func TestCheckCacheMaybePrune(t *testing.T) {
	paths := generated(t, 1)
	cache := &CheckCache{Dir: t.TempDir(), Identity: "build-a"}
	CheckAll(paths, cache)
	stale := filepath.Join(cache.Dir, "ab", strings.Repeat("1", 64)+".json")
	os.MkdirAll(filepath.Dir(stale), 0o755)
	os.WriteFile(stale, []byte("{}"), 0o644)
	now := time.Now()
	cache.MaybePrune(now)
	if _, err := os.Stat(stale); err == nil {
		t.Fatal("the first MaybePrune did not prune")
	}
	os.MkdirAll(filepath.Dir(stale), 0o755)
	os.WriteFile(stale, []byte("{}"), 0o644)
	cache.MaybePrune(now.Add(time.Hour))
	if _, err := os.Stat(stale); err != nil {
		t.Fatal("MaybePrune pruned again within a day")
	}
	cache.MaybePrune(now.Add(25 * time.Hour))
	if _, err := os.Stat(stale); err == nil {
		t.Fatal("MaybePrune did not prune a day later")
	}
	if n := cachedCount(CheckAll(paths, cache)); n != 1 {
		t.Fatal("pruning dropped a live entry")
	}
}

// Pruning reads an entry (or a memo) only up to its cap, refused by its
// size before a byte is read: a 256 MiB entry planted in the cache (a
// sparse file) costs no memory.
func TestCheckCachePruneBoundsWhatItReads(t *testing.T) {
	paths := generated(t, 1)
	cache := &CheckCache{Dir: t.TempDir(), Identity: "build-a"}
	CheckAll(paths, cache)
	entries := entryFiles(cache.Dir)
	memos, _ := filepath.Glob(filepath.Join(cache.Dir, "files", "*", "*.json"))
	if len(entries) != 1 || len(memos) != 1 {
		t.Fatalf("%d entries, %d memos; want 1 each", len(entries), len(memos))
	}
	for _, p := range append(entries, memos...) {
		if err := os.Truncate(p, 256<<20); err != nil {
			t.Fatal(err)
		}
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cache.Prune(time.Now(), PrunePolicy{KeepPerRecord: 2})
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 32<<20 {
		t.Errorf("pruning a 256 MiB entry and memo allocated %d MiB", n>>20)
	}
}
