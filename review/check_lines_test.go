package review

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/recorder"
)

// A record padded with empty lines (60 million fit in its 64 MiB) cost
// check 40 bytes a line (2.4 GB and 18 s): past safefs.MaxRecordLines it
// is refused before anything splits it, a record or a bisect summary
// alike; a genuine record of as many lines less one is read.
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
	want := "more than 1048576 lines"
	bisect := filepath.Join(dir, "bisect-x-2026-12-06.md")
	if err := os.WriteFile(bisect, []byte(strings.Repeat("\n", safefs.MaxRecordLines)+"# Bisect\n\n"+"```"+recorder.BisectFence+"\n{}\n```\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, probs := range [][]Problem{check(pad(safefs.MaxRecordLines-have), nil), check(bisect, nil)} {
		if !strings.Contains(problemsText(probs), want) {
			t.Fatalf("a record of %d lines: check found %s, want %q", safefs.MaxRecordLines+1, problemsText(probs), want)
		}
	}
	if probs := check(pad(safefs.MaxRecordLines-have-1), nil); strings.Contains(problemsText(probs), want) {
		t.Fatalf("a record of %d lines refused as too long: %s", safefs.MaxRecordLines, problemsText(probs))
	}
}

func problemsText(probs []Problem) string {
	var b strings.Builder
	for _, p := range probs {
		b.WriteString(p.String() + "\n")
	}
	return b.String()
}
