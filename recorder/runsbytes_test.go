package recorder

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"
)

// demoRuns is a real runs.jsonl.
func demoRuns(t testing.TB) []byte {
	b, err := os.ReadFile("../docs/benchmark_results/data/spec-draft-epyc-2026-11-29/runs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// ParseRunsBytes gives what ParseRuns gives, runs and errors, on any
// bytes: the layout decodebench writes (read by one decoder) and every
// other (blank lines, carriage returns, trailing text after a value, a
// value over two lines, a last line cut off, a bad line before the last,
// no final newline), seeded from a real runs.jsonl.
func FuzzParseRunsBytes(f *testing.F) {
	real := demoRuns(f)
	lines := strings.SplitAfter(string(real), "\n")
	f.Add(real)
	f.Add([]byte{})
	f.Add(real[:len(real)-1])
	f.Add([]byte(strings.ReplaceAll(string(real), "\n", "\r\n")))
	f.Add([]byte(lines[0] + "\n" + lines[1]))
	f.Add([]byte(strings.TrimSuffix(lines[0], "\n") + " {}\n" + lines[1]))
	f.Add([]byte(lines[0] + lines[1][:len(lines[1])/2]))
	f.Add([]byte(lines[0] + lines[1][:len(lines[1])/2] + "\n" + lines[2]))
	f.Add([]byte(strings.Replace(lines[0], ",", ",\n", 1) + lines[1]))
	f.Add([]byte(" " + lines[0] + lines[1]))
	f.Add([]byte(strings.Replace(lines[0], `{`, `{"unknown":1,`, 1) + lines[1]))
	f.Fuzz(func(t *testing.T, b []byte) {
		want, werr := ParseRuns(bytes.NewReader(b), "runs.jsonl")
		got, gerr := ParseRunsBytes(b, "runs.jsonl")
		if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
			t.Fatalf("error %v, ParseRuns says %v", gerr, werr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%d runs differ from ParseRuns' %d", len(got), len(want))
		}
	})
}

// A runs.jsonl as decodebench writes it takes the one-decoder path.
func TestParseRunsBytesPlain(t *testing.T) {
	if _, ok := parseRunsPlain(demoRuns(t)); !ok {
		t.Fatal("a real runs.jsonl was not read by one decoder")
	}
}

func BenchmarkParseRuns(b *testing.B) {
	data := demoRuns(b)
	b.Run("lines", func(b *testing.B) {
		for b.Loop() {
			ParseRuns(bytes.NewReader(data), RunsFile)
		}
	})
	b.Run("bytes", func(b *testing.B) {
		for b.Loop() {
			ParseRunsBytes(data, RunsFile)
		}
	})
}
