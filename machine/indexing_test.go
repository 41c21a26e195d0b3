package machine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// fakeMac records the commands run and answers mdutil -s and the Time
// Machine preference as a Mac with both on; fail names a command that
// is refused.
type fakeMac struct {
	ran  []string
	fail string
}

func (f *fakeMac) run(_ context.Context, name string, args ...string) ([]byte, error) {
	cmd := strings.Join(append([]string{name}, args...), " ")
	f.ran = append(f.ran, cmd)
	if cmd == f.fail {
		return nil, errors.New("Operation not permitted")
	}
	switch cmd {
	case "mdutil -s /":
		return []byte("/:\n\tIndexing enabled. \n"), nil
	case "defaults read /Library/Preferences/com.apple.TimeMachine AutoBackup":
		return []byte("1\n"), nil
	}
	return nil, nil
}

// Paused, then restored through the marker: by the campaign itself, or by
// the next one after a crash left the marker behind.
func TestPauseIndexingRestoresThroughMarker(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "paused.json")
	f := &fakeMac{}
	st, err := pauseIndexing(context.Background(), f.run, marker)
	if err != nil || !st.Spotlight || !st.TimeMachine {
		t.Fatalf("pause: %+v, %v", st, err)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatalf("no marker while paused: %v", err)
	}
	if got := strings.Join(f.ran[2:], "; "); got != "mdutil -a -i off; tmutil disable" {
		t.Errorf("paused with %q", got)
	}
	// A crash here: the next campaign finds the marker and restores.
	f.ran = nil
	if st, err := restoreIndexing(context.Background(), f.run, marker); err != nil || !st.Spotlight {
		t.Fatalf("restore: %+v, %v", st, err)
	}
	if got := strings.Join(f.ran, "; "); got != "mdutil -a -i on; tmutil enable" {
		t.Errorf("restored with %q", got)
	}
	if _, err := os.Stat(marker); !os.IsNotExist(err) {
		t.Errorf("marker left after the restore: %v", err)
	}
	// Without a marker there is nothing to restore.
	f.ran = nil
	if _, err := restoreIndexing(context.Background(), f.run, marker); err != nil || len(f.ran) != 0 {
		t.Errorf("restore without a marker ran %v (%v)", f.ran, err)
	}
}

// A refusal (not root) fails the pause and restores what was paused; a
// failed restore keeps the marker for the next campaign.
func TestPauseIndexingRefused(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "paused.json")
	f := &fakeMac{fail: "tmutil disable"}
	if _, err := pauseIndexing(context.Background(), f.run, marker); err == nil || !strings.Contains(err.Error(), "tmutil disable") {
		t.Fatalf("pause error %v", err)
	}
	if !strings.Contains(strings.Join(f.ran, "; "), "mdutil -a -i on") {
		t.Errorf("Spotlight not restored after the refusal: %v", f.ran)
	}
	if _, err := os.Stat(marker); !os.IsNotExist(err) {
		t.Errorf("marker left after the immediate restore")
	}
	f = &fakeMac{}
	pauseIndexing(context.Background(), f.run, marker)
	f.fail = "tmutil enable"
	if _, err := restoreIndexing(context.Background(), f.run, marker); err == nil {
		t.Error("a failed restore reported no error")
	}
	if _, err := os.Stat(marker); err != nil {
		t.Error("a failed restore removed the marker")
	}
	if spotlightEnabled([]byte("/:\n\tIndexing enabled. (disabled)\n")) || spotlightEnabled([]byte("/:\n\tIndexing disabled.\n")) {
		t.Error("disabled Spotlight read as enabled")
	}
}

// A FIFO or a link to /dev/zero in the marker's place is refused at once:
// the campaign's start neither hangs on it nor reads it without end, and
// nothing is turned back on by it.
func TestRestoreIndexingRefusesSpecialMarkers(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.json")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	for _, marker := range []string{fifo, zero} {
		f := &fakeMac{}
		done := make(chan error, 1)
		go func() { _, err := restoreIndexing(context.Background(), f.run, marker); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "not a regular file") || len(f.ran) != 0 {
				t.Errorf("%s: %v, ran %v", marker, err, f.ran)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: restoring indexing hung", marker)
		}
	}
}
