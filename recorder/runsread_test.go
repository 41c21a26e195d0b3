package recorder

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// demoRuns is a real runs.jsonl.
func demoRuns(t testing.TB) []byte {
	b, err := os.ReadFile("../docs/benchmark_results/data/spec-draft-epyc-2026-11-29/runs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// EachRun gives what ParseRuns gives, runs and errors, on any bytes and
// with chunks of any size (so that a chunk ends anywhere a line does):
// the layout decodebench writes (read by one decoder) and every other
// (blank lines, carriage returns, trailing text after a value, a value
// over two lines, a last line cut off, a bad line before the last, no
// final newline, an unknown field), seeded from a real runs.jsonl.
func FuzzEachRun(f *testing.F) {
	real := demoRuns(f)
	lines := strings.SplitAfter(string(real), "\n")
	for _, s := range []string{
		string(real), "", string(real[:len(real)-1]), strings.ReplaceAll(string(real), "\n", "\r\n"),
		lines[0] + "\n" + lines[1], strings.TrimSuffix(lines[0], "\n") + " {}\n" + lines[1],
		lines[0] + lines[1][:len(lines[1])/2], lines[0] + lines[1][:len(lines[1])/2] + "\n" + lines[2],
		strings.Replace(lines[0], ",", ",\n", 1) + lines[1], " " + lines[0] + lines[1],
		strings.Replace(lines[0], `{`, `{"unknown":1,`, 1) + lines[1], "x\n" + lines[0], lines[0] + "x\n", lines[0] + "x",
	} {
		for _, chunk := range []uint32{1, 100, uint32(len(lines[0])), 1 << 22} {
			f.Add([]byte(s), chunk)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte, chunk uint32) {
		want, werr := ParseRuns(bytes.NewReader(b), "runs.jsonl")
		var got []schema.Run
		_, gerr := eachRun(bytes.NewReader(b), "runs.jsonl", int(chunk%(1<<23))+1, false, AppendRun(&got, "runs.jsonl"))
		if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
			t.Fatalf("error %v, ParseRuns says %v", gerr, werr)
		}
		if werr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%d runs differ from ParseRuns' %d", len(got), len(want))
		}
	})
}

// A line of maxRunLine bytes or more is refused as ParseRuns' scanner
// refuses it, after the runs of the lines before it.
func TestEachRunLongLine(t *testing.T) {
	real := demoRuns(t)
	long := append(append(append([]byte{}, real...), bytes.Repeat([]byte{' '}, maxRunLine)...), '\n')
	want, werr := ParseRuns(bytes.NewReader(long), "runs.jsonl")
	n := 0
	gerr := EachRun(bytes.NewReader(long), "runs.jsonl", func(schema.Run) error { n++; return nil })
	if werr == nil || gerr == nil || werr.Error() != gerr.Error() || n != 18 || len(want) != 0 {
		t.Fatalf("EachRun: %v after %d runs; ParseRuns: %v", gerr, n, werr)
	}
}

// A runs.jsonl laid out as decodebench writes it is decoded by the one
// decoder in every chunk, wherever the chunks end: none is read line by
// line.
func TestEachRunPlain(t *testing.T) {
	real := demoRuns(t)
	want, err := ParseRuns(bytes.NewReader(real), "runs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, chunk := range []int{1, 1000, 20000, 100000, runsChunk} {
		var got []schema.Run
		byLine, err := eachRun(bytes.NewReader(real), "runs.jsonl", chunk, false, AppendRun(&got, "runs.jsonl"))
		if err != nil || byLine != 0 || !reflect.DeepEqual(got, want) {
			t.Errorf("chunks of %d bytes: %d runs, %d chunk(s) read line by line, %v", chunk, len(got), byLine, err)
		}
	}
}

// A reader keeps at most MaxRunCount runs: a runs.jsonl of more tiny
// lines (tens of bytes each, hundreds of bytes each as a run) is refused
// once the cap is passed, not held whole.
func TestAppendRunCap(t *testing.T) {
	defer func(n int) { maxRunCount = n }(maxRunCount)
	maxRunCount = 5
	var runs []schema.Run
	err := EachRun(strings.NewReader(strings.Repeat(`{"seq":1}`+"\n", 6)), "runs.jsonl", AppendRun(&runs, "runs.jsonl"))
	if err == nil || !strings.Contains(err.Error(), "holds more than 5 runs") || len(runs) != 5 {
		t.Fatalf("%d runs kept, %v", len(runs), err)
	}
}

func BenchmarkParseRuns(b *testing.B) {
	data := demoRuns(b)
	b.Run("lines", func(b *testing.B) {
		for b.Loop() {
			ParseRuns(bytes.NewReader(data), RunsFile)
		}
	})
	b.Run("stream", func(b *testing.B) {
		for b.Loop() {
			var runs []schema.Run
			EachRun(bytes.NewReader(data), RunsFile, AppendRun(&runs, RunsFile))
		}
	})
}
