package review

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// The prune marker is written through safefs: a link planted at it is
// replaced (its target not truncated), a FIFO there is not hung on.
func TestMaybePruneMarkerNeverFollowed(t *testing.T) {
	for _, planted := range []string{"link", "fifo"} {
		t.Run(planted, func(t *testing.T) {
			cache := &CheckCache{Dir: t.TempDir(), Identity: "build-a"}
			marker := filepath.Join(cache.Dir, pruneMarker)
			outside := filepath.Join(t.TempDir(), "victim")
			if err := os.WriteFile(outside, []byte("precious"), 0o600); err != nil {
				t.Fatal(err)
			}
			old := time.Now().Add(-48 * time.Hour)
			if err := os.Chtimes(outside, old, old); err != nil {
				t.Fatal(err)
			}
			var err error
			if planted == "link" {
				err = os.Symlink(outside, marker)
			} else {
				err = unix.Mkfifo(marker, 0o600)
			}
			if err != nil {
				t.Fatal(err)
			}
			// The planted marker says the cache was last pruned long ago.
			ts := []unix.Timespec{unix.NsecToTimespec(old.UnixNano()), unix.NsecToTimespec(old.UnixNano())}
			if err := unix.UtimesNanoAt(unix.AT_FDCWD, marker, ts, unix.AT_SYMLINK_NOFOLLOW); err != nil {
				t.Fatal(err)
			}
			done := make(chan struct{})
			go func() { cache.MaybePrune(time.Now()); close(done) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("MaybePrune hung on the marker")
			}
			if b, _ := os.ReadFile(outside); string(b) != "precious" {
				t.Errorf("the link's target was written: %q", b)
			}
			if fi, err := os.Lstat(marker); err != nil || !fi.Mode().IsRegular() {
				t.Errorf("marker is not a regular file: %v", err)
			}
		})
	}
}

// A cache entry or file memo is written through safefs: a link planted at
// its path is replaced, its target left as it was; a stale safefs
// temporary file is pruned as an old ".entry-*" one was.
func TestCacheWriteNeverFollowsAndPrunesTemps(t *testing.T) {
	cache := &CheckCache{Dir: t.TempDir(), Identity: "build-a"}
	p := filepath.Join(cache.Dir, "ab", "entry.json")
	outside := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(outside, []byte("precious"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, p); err != nil {
		t.Fatal(err)
	}
	cache.writeAtomic(p, []byte("{}"))
	if b, _ := os.ReadFile(outside); string(b) != "precious" {
		t.Errorf("the link's target was written: %q", b)
	}
	if fi, err := os.Lstat(p); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("entry is not a regular file: %v", err)
	}
	if !isTempName(".entry.json.tmp-0123456789abcdef") || !isTempName(".entry-42") || isTempName("entry.json") {
		t.Error("isTempName")
	}
}

// Marking a cache file used sets its own time, never that of a link's
// target.
func TestTouchNeverFollowsALink(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(outside, []byte("precious"), 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(outside, old, old); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "entry.json")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	touch(link, old)
	if fi, err := os.Stat(outside); err != nil || !fi.ModTime().Equal(old) {
		t.Errorf("the link's target was touched: %v, %v", fi.ModTime(), err)
	}
}
