package machine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/internal/execfile"
)

// standIn puts an executable script called name, with body, alone on PATH
// (the script itself runs with the test's PATH).
func standIn(t *testing.T, name, body string) {
	t.Helper()
	dir := t.TempDir()
	script := "#!/bin/sh\nPATH='" + os.Getenv("PATH") + "'\n" + body + "\n"
	if err := execfile.Write(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
}

// allocated runs f and returns how many bytes the heap allocated meanwhile.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A tool's standard error is kept only up to maxToolStderr, however much
// it prints: 128 MiB of complaint costs little memory, and the error
// quotes at most one short line of it.
func TestRunToolBoundsStderr(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("stand-in tools are shell scripts")
	}
	const flood = 128 << 20
	for _, tc := range []struct{ name, body string }{
		{"lines", "yes 'the driver is unhappy today' | head -c " + itoa(flood) + " >&2; exit 3"},
		{"one line", "head -c " + itoa(flood) + " /dev/zero | tr '\\0' x >&2; exit 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			standIn(t, "sysctl", tc.body)
			var err error
			n := allocated(func() { _, err = runTool(context.Background(), "sysctl", "hw") })
			if err == nil || !strings.Contains(err.Error(), "exit status 3") {
				t.Fatalf("runTool = %v, want the exit status", err)
			}
			if len(err.Error()) > 512 {
				t.Errorf("the error quotes %d bytes of the tool's output", len(err.Error()))
			}
			if n > 32<<20 {
				t.Errorf("128 MiB on stderr allocated %d MiB", n>>20)
			}
		})
	}
}

// A tool's standard output past MaxToolOutput ends it with an error that
// names the bound and quotes none of it, instead of growing memory until
// the tool's timeout.
func TestRunToolBoundsStdout(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("stand-in tools are shell scripts")
	}
	for _, tc := range []struct{ name, body string }{
		{"then exits", "head -c " + itoa(MaxToolOutput+1) + " /dev/zero | tr '\\0' x"},
		{"forever", "exec yes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			standIn(t, "ioreg", tc.body)
			out, err := runTool(context.Background(), "ioreg", "-r")
			if !errors.Is(err, ErrToolOutputTooLarge) {
				t.Fatalf("runTool = %d bytes, %v; want ErrToolOutputTooLarge", len(out), err)
			}
			if !strings.Contains(err.Error(), "16 MiB") || len(err.Error()) > 512 {
				t.Errorf("error %q does not name the bound or quotes the output", err)
			}
		})
	}
	// Exactly at the bound is read whole.
	standIn(t, "ioreg", "head -c "+itoa(MaxToolOutput)+" /dev/zero | tr '\\0' x")
	if out, err := runTool(context.Background(), "ioreg"); err != nil || len(out) != MaxToolOutput {
		t.Errorf("runTool at the bound = %d bytes, %v", len(out), err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
