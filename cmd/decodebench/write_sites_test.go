package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/urfave/cli/v2"

	"github.com/decodebench/decodebench/harness"
	"github.com/decodebench/decodebench/schema"
)

// within runs f and fails the test if it does not return in 10 s (a FIFO
// hung on).
func within(t *testing.T, what string, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatalf("%s hung", what)
		return nil
	}
}

// victim is a file outside the folder written to, that a planted link
// points at; it must keep its content.
func victim(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(p, []byte("precious"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func keeps(t *testing.T, p string) {
	t.Helper()
	if b, _ := os.ReadFile(p); string(b) != "precious" {
		t.Errorf("the planted link's target was written: %q", b)
	}
}

// init never writes through a link or hangs on a FIFO planted at FILE:
// without --force both are "exists"; with --force they are replaced by
// the starter, a regular file, and the link's target is left as it was.
func TestInitNeverFollowsAPlantedFile(t *testing.T) {
	for _, force := range []bool{false, true} {
		for _, planted := range []string{"link", "fifo"} {
			name := planted
			if force {
				name += "-force"
			}
			t.Run(name, func(t *testing.T) {
				dir := t.TempDir()
				path := filepath.Join(dir, "mine.yaml")
				outside := victim(t)
				var err error
				if planted == "link" {
					err = os.Symlink(outside, path)
				} else {
					err = unix.Mkfifo(path, 0o600)
				}
				if err != nil {
					t.Fatal(err)
				}
				args := []string{"decodebench", "init", path}
				if force {
					args = []string{"decodebench", "init", "--force", path}
				}
				var out, errOut bytes.Buffer
				app := newApp()
				app.Writer, app.ErrWriter = &out, &errOut
				app.ExitErrHandler = func(*cli.Context, error) {}
				err = within(t, "init", func() error { return app.Run(args) })
				keeps(t, outside)
				if !force {
					if err == nil || !strings.Contains(err.Error(), "exists") {
						t.Errorf("init over a planted %s: %v", planted, err)
					}
					return
				}
				if err != nil {
					t.Fatalf("init --force: %v", err)
				}
				if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
					t.Errorf("%s is not a regular file: %v", path, err)
				}
			})
		}
	}
}

// The job summary is appended to in place, but a FIFO at
// $GITHUB_STEP_SUMMARY is refused at once (a warning), never blocked on,
// and a link there is refused with its target left as it was.
func TestGitHubSummaryRefusesLinksAndFIFOs(t *testing.T) {
	out := &harness.Outcome{Record: &schema.Record{}, RecordPath: "rec.md"}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := within(t, "appending to a FIFO", func() error { return appendGitHubSummary(fifo, out) }); err == nil {
		t.Error("a FIFO was appended to")
	}
	outside := victim(t)
	link := filepath.Join(dir, "link")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	if err := within(t, "appending through a link", func() error { return appendGitHubSummary(link, out) }); err == nil {
		t.Error("a link was appended through")
	}
	keeps(t, outside)
	// A regular file is appended to, what was there kept.
	reg := filepath.Join(dir, "summary.md")
	if err := os.WriteFile(reg, []byte("earlier step\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := appendGitHubSummary(reg, out); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(reg); !strings.HasPrefix(string(b), "earlier step\n") || len(b) <= len("earlier step\n") {
		t.Errorf("summary file: %q", b)
	}
}

// An export is written through safefs into the folder the user named
// (links in that folder resolved once): a link at the file's name is
// replaced, its target left as it was; a FIFO there is replaced too.
func TestExportWriteNeverFollowsAPlantedFile(t *testing.T) {
	for _, planted := range []string{"link", "fifo"} {
		t.Run(planted, func(t *testing.T) {
			real := t.TempDir()
			dir := filepath.Join(t.TempDir(), "out")
			if err := os.Symlink(real, dir); err != nil { // a folder link the user chose
				t.Fatal(err)
			}
			path := filepath.Join(dir, "history.csv")
			outside := victim(t)
			var err error
			if planted == "link" {
				err = os.Symlink(outside, path)
			} else {
				err = unix.Mkfifo(path, 0o600)
			}
			if err != nil {
				t.Fatal(err)
			}
			err = within(t, "export", func() error {
				return writeAtomically(path, func(w io.Writer) error { _, err := io.WriteString(w, "a,b\n"); return err })
			})
			if err != nil {
				t.Fatal(err)
			}
			keeps(t, outside)
			if b, err := os.ReadFile(filepath.Join(real, "history.csv")); err != nil || string(b) != "a,b\n" {
				t.Errorf("export: %q, %v", b, err)
			}
		})
	}
}

// A check cache says records passed: one in a folder others may write to
// is not used (a warning says so) and nothing is written into it.
func TestCheckCacheNotUsedFromASharedFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil { // past the umask
		t.Fatal(err)
	}
	rec := filepath.Join("..", "..", "docs", "benchmark_results")
	ents, _ := filepath.Glob(filepath.Join(rec, "spec-*.md"))
	if len(ents) == 0 {
		t.Fatal("no committed record to check")
	}
	var out, errOut bytes.Buffer
	app := newApp()
	app.Writer, app.ErrWriter = &out, &errOut
	if err := app.Run([]string{"decodebench", "check", "--cache-dir", dir, ents[0]}); err != nil {
		t.Fatalf("check: %v\n%s", err, errOut.String())
	}
	if !strings.Contains(errOut.String(), "check cache not used") || !strings.Contains(errOut.String(), "writable by others") {
		t.Errorf("no warning: %s", errOut.String())
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("written into the shared cache: %v", left)
	}
}
