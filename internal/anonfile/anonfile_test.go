//go:build unix

package anonfile

import (
	"errors"
	"os"
	"os/exec"
	"runtime"
	"testing"
)

// Where there is no memfd (macOS), the spool is a temporary file that is
// unlinked at once and appended to by every writer.
func TestTempAnonymousFile(t *testing.T) {
	f, err := tempAnonymous("test")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := os.Stat(f.Name()); !os.IsNotExist(err) {
		t.Errorf("%s still has a name: %v", f.Name(), err)
	}
	cmd := exec.Command("sh", "-c", "echo one; echo two >&2")
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	f.WriteString("three\n")
	b := make([]byte, 100)
	n, _ := f.ReadAt(b, 0)
	if string(b[:n]) != "one\ntwo\nthree\n" {
		t.Errorf("spool holds %q", b[:n])
	}
}

// An anonymous file is appended to by a child as by this process, and
// what PunchHole frees reads back as zeros while its size and the rest
// stay (on Linux; elsewhere PunchHole says it is unsupported).
func TestNewAppendsAndPunchHoleFrees(t *testing.T) {
	f, err := New("test")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cmd := exec.Command("sh", "-c", "head -c 2097152 /dev/zero | tr '\\0' x")
	cmd.Stdout = f
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	f.WriteString("end")
	fi, err := f.Stat()
	if err != nil || fi.Size() != 2<<20+3 {
		t.Fatalf("size %v, %v", fi, err)
	}
	err = PunchHole(f, 1<<20)
	if runtime.GOOS != "linux" {
		if !errors.Is(err, errors.ErrUnsupported) {
			t.Errorf("PunchHole on %s = %v", runtime.GOOS, err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 2<<20+3)
	if n, _ := f.ReadAt(b, 0); n != len(b) {
		t.Fatalf("read %d of %d bytes after the hole", n, len(b))
	}
	if b[0] != 0 || b[1<<20-1] != 0 || b[1<<20] != 'x' || string(b[len(b)-3:]) != "end" {
		t.Errorf("after the hole: %q … %q %q … %q", b[0], b[1<<20-1], b[1<<20], b[len(b)-3:])
	}
}
