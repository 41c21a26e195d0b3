package review

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/recorder"
)

// A record padded with empty lines (60 million fit in its 64 MiB) cost
// check 40 bytes a line (2.4 GB and 18 s): past safefs.MaxRecordLines it
// is refused before anything splits it, a record or a bisect summary
// alike, with the check cache or without; a genuine record of as many
// lines less one is read.
func TestCheckRefusesARecordOfTooManyLines(t *testing.T) {
	const name = "cli-threads-epyc-2026-11-29"
	src, err := os.ReadFile(filepath.Join("..", "docs", "benchmark_results", name+".md"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	pad := func(lines int) string {
		path := filepath.Join(dir, name+".md")
		if err := os.WriteFile(path, append(bytes.Repeat([]byte{'\n'}, lines), src...), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	have := bytes.Count(src, []byte{'\n'})
	want := fmt.Sprintf("more than %d lines", safefs.MaxRecordLines)
	bisect := filepath.Join(dir, "bisect-x-2026-12-06.md")
	if err := os.WriteFile(bisect, []byte(strings.Repeat("\n", safefs.MaxRecordLines)+"# Bisect\n\n"+"```"+recorder.BisectFence+"\n{}\n```\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, probs := range [][]Problem{check(pad(safefs.MaxRecordLines-have), nil), check(bisect, nil)} {
		if !strings.Contains(fmt.Sprint(probs), want) {
			t.Fatalf("a record of %d lines: check found %s, want %q", safefs.MaxRecordLines+1, fmt.Sprint(probs), want)
		}
	}
	// Through the check cache (check's default), which asks first whether
	// the file is a bisect summary: refused, and without holding its lines
	// apart (a slice of them is 16 bytes a line, 64 MiB here).
	padded := pad(safefs.MaxRecordLines - have)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	got := CheckAll([]string{padded}, &CheckCache{Dir: t.TempDir()})
	runtime.ReadMemStats(&after)
	if len(got) != 1 || !strings.Contains(fmt.Sprint(got[0].Problems), want) {
		t.Fatalf("through the cache: %+v, want %q", got, want)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 48<<20 {
		t.Errorf("checking a record of %d lines allocated %d MiB: its lines were held apart", safefs.MaxRecordLines+1, alloc>>20)
	}
	if probs := check(pad(safefs.MaxRecordLines-have-1), nil); strings.Contains(fmt.Sprint(probs), want) {
		t.Fatalf("a record of %d lines refused as too long: %s", safefs.MaxRecordLines, fmt.Sprint(probs))
	}
}
