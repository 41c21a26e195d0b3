// Package execfile writes files that are about to be executed, for tests
// that make stand-in engines, tools and wrapper scripts.
//
// A file written by this process cannot be executed safely while other
// goroutines of the process start commands: between fork and exec, each
// child holds a copy of every descriptor the process has open, the write
// descriptor of a file being written included, and execve refuses a file
// open for writing anywhere ("text file busy", ETXTBSY; golang/go#22315).
// A parallel test that writes a script and runs it at once loses that race
// now and then (the e2e copy of llama-server did, in CI). Write and Copy
// hand the writing to a short-lived /bin/sh, so no descriptor open for
// writing the file ever exists in this process to be inherited.
package execfile

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

// script writes stdin to $1 (created or truncated) and sets its mode to
// $2 (octal); the redirection is done by the shell, never by this process.
const script = `umask 077; cat > "$1" && chmod "$2" "$1"`

// Write writes data to path with mode perm, as os.WriteFile does, from a
// child process.
func Write(path string, data []byte, perm os.FileMode) error {
	return write(path, bytes.NewReader(data), perm)
}

// Copy copies the file from to path with mode perm, from a child process.
func Copy(from, path string, perm os.FileMode) error {
	f, err := os.Open(from)
	if err != nil {
		return err
	}
	defer f.Close()
	return write(path, f, perm)
}

func write(path string, r io.Reader, perm os.FileMode) error {
	cmd := exec.Command("/bin/sh", "-c", script, "sh", path, fmt.Sprintf("%o", perm.Perm()))
	cmd.Stdin = r
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("writing %s: %v: %s", path, err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// Remake replaces the file at path with a copy of itself of mode perm, a
// new file written from a child process and renamed over the old one: for
// a file this process wrote itself (testscript unpacks a script's files
// in-process), whose old descriptor a child may still hold.
func Remake(path string, perm os.FileMode) error {
	tmp := path + ".execfile"
	if err := Copy(path, tmp, perm); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
