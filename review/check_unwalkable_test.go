//go:build unix

package review

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/decodebench/decodebench/recorder"
)

// A part of a data folder that cannot be listed (here a file past the
// system's path limit, 2,100 folders deep, made with *at calls) is a
// problem: the walk passed it over, and an 8 MB file there checked clean,
// unnamed, where one shallow is "in the data folder but the record does
// not name it".
func TestCheckNamesAnUnlistablePartOfTheDataFolder(t *testing.T) {
	src := "../docs/benchmark_results/spec-draft-epyc-2026-11-29-2.md"
	rec, err := recorder.Load(src)
	if err != nil {
		t.Fatal(err)
	}
	path := writeCopy(t, t.TempDir(), filepath.Join(filepath.Dir(src), "data", "spec-draft-epyc-2026-11-29-2"), rec)
	if probs := Check(path); len(probs) > 0 {
		t.Fatalf("the copy as committed: %v", probs)
	}
	dataDir := filepath.Join(filepath.Dir(path), filepath.FromSlash(rec.DataDir))
	fd, err := unix.Open(dataDir, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	for range 2100 {
		if err := unix.Mkdirat(fd, "a", 0o755); err != nil {
			t.Fatal(err)
		}
		next, err := unix.Openat(fd, "a", unix.O_RDONLY|unix.O_DIRECTORY, 0)
		unix.Close(fd)
		if err != nil {
			t.Fatal(err)
		}
		fd = next
	}
	f, err := unix.Openat(fd, "hidden.log", unix.O_CREAT|unix.O_WRONLY, 0o644)
	unix.Close(fd)
	if err != nil {
		t.Fatal(err)
	}
	unix.Write(f, []byte("unvouched"))
	unix.Close(f)
	probs := Check(path)
	if len(probs) != 1 || !strings.Contains(probs[0].Message, "in the data folder cannot be listed or read") {
		t.Errorf("a file past the path limit: %v", probs)
	}
}
