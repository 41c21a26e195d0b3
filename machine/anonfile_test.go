//go:build unix

package machine

import (
	"os"
	"os/exec"
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
