package engine

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// An engine log is opened through safefs.OpenFile: a FIFO planted at its
// path (a copied data folder, a resumed campaign) fails at once, new or
// appended to, instead of hanging the campaign; a link is refused, its
// target left as it was.
func TestLogNeverHangsOnAFIFOOrFollowsALink(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "run-001-a.log")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(outside, []byte("precious"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "run-002-a.log")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path  string
		flags int
	}{
		{fifo, os.O_CREATE | os.O_WRONLY | os.O_TRUNC},
		{fifo, os.O_CREATE | os.O_WRONLY | os.O_APPEND},
		{link, os.O_CREATE | os.O_WRONLY | os.O_TRUNC},
		{link, os.O_CREATE | os.O_WRONLY | os.O_APPEND},
	} {
		done := make(chan error, 1)
		go func() {
			l, err := openLog(c.path, c.flags)
			if err == nil {
				l.f.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("openLog(%s, %#x) opened a special file", filepath.Base(c.path), c.flags)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("openLog(%s, %#x) hung", filepath.Base(c.path), c.flags)
		}
	}
	if b, _ := os.ReadFile(outside); string(b) != "precious" {
		t.Errorf("the link's target was written: %q", b)
	}
}
