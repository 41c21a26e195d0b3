package machine

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// The marker's folder may be /tmp, where another user can plant a link or
// a FIFO at the marker's name (or at a fixed temporary name beside it):
// the pause replaces it, never writes through it nor hangs on it.
func TestPauseIndexingMarkerNotFollowed(t *testing.T) {
	for _, planted := range []string{"link", "tmp-link", "fifo"} {
		t.Run(planted, func(t *testing.T) {
			dir := t.TempDir()
			marker := filepath.Join(dir, "paused.json")
			outside := filepath.Join(t.TempDir(), "victim")
			if err := os.WriteFile(outside, []byte("precious"), 0o600); err != nil {
				t.Fatal(err)
			}
			switch planted {
			case "link":
				must(t, os.Symlink(outside, marker))
			case "tmp-link":
				must(t, os.Symlink(outside, marker+".tmp"))
			case "fifo":
				must(t, unix.Mkfifo(marker, 0o600))
			}
			done := make(chan error, 1)
			go func() {
				_, err := pauseIndexing(context.Background(), (&fakeMac{}).run, marker)
				done <- err
			}()
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("pause: %v", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("pause hung on the planted file")
			}
			if b, _ := os.ReadFile(outside); string(b) != "precious" {
				t.Errorf("the link's target was overwritten: %q", b)
			}
			if fi, err := os.Lstat(marker); err != nil || !fi.Mode().IsRegular() {
				t.Errorf("marker is not a regular file: %v, %v", fi, err)
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
