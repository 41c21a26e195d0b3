package safefs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// The guarded reader refuses a link to /dev/zero, a device, a FIFO (at
// once, without hanging) and a file over its cap, and reads a regular file.
func TestReadFileRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	zero := filepath.Join(dir, "zero.md")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.md")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.md")
	if err := os.WriteFile(big, make([]byte, 101), 0o600); err != nil {
		t.Fatal(err)
	}
	ok := filepath.Join(dir, "ok.md")
	if err := os.WriteFile(ok, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	var nr *NotRegularError
	var tl *TooLargeError
	for _, c := range []struct {
		path string
		want func(error) bool
	}{
		{zero, func(err error) bool { return errors.As(err, &nr) && strings.Contains(err.Error(), "link") }},
		{"/dev/zero", func(err error) bool { return errors.As(err, &nr) && strings.Contains(err.Error(), "character device") }},
		{fifo, func(err error) bool { return errors.As(err, &nr) && strings.Contains(err.Error(), "FIFO") }},
		{dir, func(err error) bool { return errors.As(err, &nr) }},
		{big, func(err error) bool { return errors.As(err, &tl) }},
	} {
		done := make(chan error, 1)
		go func() { _, err := ReadFile(c.path, 100); done <- err }()
		select {
		case err := <-done:
			if err == nil || !c.want(err) {
				t.Errorf("ReadFile(%s) = %v", c.path, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("ReadFile(%s) blocked", c.path)
		}
	}
	if b, err := ReadFile(ok, 100); err != nil || string(b) != "hello" {
		t.Errorf("ReadFile(ok) = %q, %v", b, err)
	}
	// The same under a held folder, and a link as a folder on the way.
	d, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := os.Symlink("/dev", filepath.Join(dir, "dev")); err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"zero.md", "fifo.md", "big.md", "dev/zero", "../ok.md", "/etc/passwd"} {
		if _, err := d.ReadFile(rel, 100); err == nil {
			t.Errorf("Dir.ReadFile(%s) read it", rel)
		}
	}
}

// WriteFile replaces a link planted at the target and ignores one planted
// at the old fixed temporary name: neither link's target changes.
func TestWriteFileNeverFollowsLinks(t *testing.T) {
	dir, victim := t.TempDir(), filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("precious"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, planted := range []string{"README.md", "README.md.tmp", "index/x-trend.png", "index/x-trend.png.tmp"} {
		p := filepath.Join(dir, planted)
		_ = os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.Symlink(victim, p); err != nil {
			t.Fatal(err)
		}
	}
	for _, rel := range []string{"README.md", "index/x-trend.png"} {
		if err := WriteFile(filepath.Join(dir, rel), []byte("new"), 0o644); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Lstat(filepath.Join(dir, rel))
		if err != nil || !fi.Mode().IsRegular() {
			t.Errorf("%s: %v, %v: want a regular file", rel, fi, err)
		}
	}
	if b, _ := os.ReadFile(victim); string(b) != "precious" {
		t.Errorf("the link's target was written: %q", b)
	}
	// A folder on the way that is a link is refused.
	if err := os.Symlink(t.TempDir(), filepath.Join(dir, "sub")); err != nil {
		t.Fatal(err)
	}
	d, _ := OpenDir(dir)
	defer d.Close()
	if err := d.WriteFile("sub/f", []byte("x"), 0o644); err == nil {
		t.Error("wrote through a linked folder")
	}
	if f, err := d.OpenFile("README.md.tmp", os.O_WRONLY|os.O_APPEND, 0o644); err == nil {
		f.Close()
		t.Error("opened a link for appending")
	}
	// No temporary file is left behind.
	left, _ := filepath.Glob(filepath.Join(dir, ".*tmp-*"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// A held folder keeps receiving what is written through it after its path
// is swapped for a link, and Verify notices the swap.
func TestDirSurvivesSwap(t *testing.T) {
	parent, elsewhere := t.TempDir(), t.TempDir()
	data := filepath.Join(parent, "data")
	if err := os.Mkdir(data, 0o755); err != nil {
		t.Fatal(err)
	}
	d, err := OpenDir(data)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.Verify(); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(data, data+".moved"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, data); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteFile("logs/run.log", []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(elsewhere, "logs")); err == nil {
		t.Error("the write followed the swapped-in link")
	}
	if _, err := os.Stat(filepath.Join(data+".moved", "logs", "run.log")); err != nil {
		t.Errorf("the write did not reach the held folder: %v", err)
	}
	if err := d.Verify(); err == nil {
		t.Error("Verify did not notice the swap")
	}
	if _, err := OpenDir(data); err == nil {
		t.Error("OpenDir followed a link")
	}
}

// ReadNamed follows a link the user named, but what it leads to must be a
// regular file within the cap: a link to /dev/zero, a FIFO (at once) and
// a file over the cap are refused.
func TestReadNamedFollowsLinksToRegularFilesOnly(t *testing.T) {
	dir := t.TempDir()
	zero := filepath.Join(dir, "zero")
	os.Symlink("/dev/zero", zero)
	fifo := filepath.Join(dir, "fifo")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	fifoLink := filepath.Join(dir, "fifo-link")
	os.Symlink(fifo, fifoLink)
	big := filepath.Join(dir, "big")
	os.WriteFile(big, make([]byte, 101), 0o600)
	ok := filepath.Join(dir, "ok")
	os.WriteFile(ok, []byte("hello"), 0o600)
	okLink := filepath.Join(dir, "ok-link")
	os.Symlink(ok, okLink)
	var nr *NotRegularError
	var tl *TooLargeError
	for _, c := range []struct {
		path string
		want func(error) bool
	}{
		{zero, func(err error) bool { return errors.As(err, &nr) && strings.Contains(err.Error(), "character device") }},
		{fifoLink, func(err error) bool { return errors.As(err, &nr) && strings.Contains(err.Error(), "FIFO") }},
		{big, func(err error) bool { return errors.As(err, &tl) }},
		{filepath.Join(dir, "none"), func(err error) bool { return errors.Is(err, os.ErrNotExist) }},
	} {
		done := make(chan error, 1)
		go func() { _, err := ReadNamed(c.path, 100); done <- err }()
		select {
		case err := <-done:
			if err == nil || !c.want(err) {
				t.Errorf("ReadNamed(%s) = %v", c.path, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("ReadNamed(%s) blocked", c.path)
		}
	}
	if b, err := ReadNamed(okLink, 100); err != nil || string(b) != "hello" {
		t.Errorf("ReadNamed(link to ok) = %q, %v", b, err)
	}
}

// CreateFile writes only where nothing is yet: a file, a link (its target
// left as it was) or a FIFO at the path is an fs.ErrExist, at once, and
// no temporary file is left behind.
func TestCreateFileNeverReplacesOrFollows(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(outside, []byte("precious"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{link, fifo} {
		if err := CreateFile(p, []byte("x"), 0o644); !errors.Is(err, os.ErrExist) {
			t.Errorf("CreateFile(%s) = %v, want an ErrExist", p, err)
		}
	}
	if b, _ := os.ReadFile(outside); string(b) != "precious" {
		t.Errorf("the link's target was written: %q", b)
	}
	fresh := filepath.Join(dir, "fresh")
	if err := CreateFile(fresh, []byte("new"), 0o640); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(fresh); err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o640 {
		t.Errorf("fresh file: %v, %v", fi, err)
	}
	if err := CreateFile(fresh, []byte("again"), 0o644); !errors.Is(err, os.ErrExist) {
		t.Errorf("CreateFile over an existing file = %v", err)
	}
	if b, _ := os.ReadFile(fresh); string(b) != "new" {
		t.Errorf("existing file changed: %q", b)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 3 {
		t.Errorf("temporary files left behind: %v", ents)
	}
}

// OpenAppend appends to a regular file, refuses a link (its target left as
// it was) and a FIFO, without blocking on one that has no reader.
func TestOpenAppendRefusesLinksAndFIFOs(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(outside, []byte("precious"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 2)
	go func() {
		for _, p := range []string{link, fifo} {
			f, err := OpenAppend(p, 0o644)
			if err == nil {
				f.Close()
			}
			done <- err
		}
	}()
	for range 2 {
		select {
		case err := <-done:
			if err == nil {
				t.Error("a link or a FIFO was opened for appending")
			}
		case <-time.After(10 * time.Second):
			t.Fatal("OpenAppend blocked on a FIFO")
		}
	}
	// A FIFO with a reader opens without blocking, and is refused.
	r, err := os.OpenFile(fifo, os.O_RDONLY|unix.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var nr *NotRegularError
	if _, err := OpenAppend(fifo, 0o644); !errors.As(err, &nr) {
		t.Errorf("FIFO with a reader: %v", err)
	}
	if b, _ := os.ReadFile(outside); string(b) != "precious" {
		t.Errorf("the link's target was written: %q", b)
	}
	p := filepath.Join(dir, "summary.md")
	for _, s := range []string{"a", "b"} {
		f, err := OpenAppend(p, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(s)
		f.Close()
	}
	if b, _ := os.ReadFile(p); string(b) != "ab" {
		t.Errorf("appended %q", b)
	}
}
