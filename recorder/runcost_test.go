package recorder

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
	_ "time/tzdata"

	"github.com/decodebench/decodebench/schema"
)

// denseLine is a run line whose metrics are n small entries, each its
// own name unless names is smaller (then they repeat across lines).
func denseLine(seq, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"seq":%d,"round":1,"arm":"a","start":"2026-12-06T00:00:00Z","seconds":0,"cooldown_s":0,"metrics":{`, seq)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"m%d":1`, i)
	}
	b.WriteString("}}\n")
	return b.String()
}

// A run whose line decodes to far more memory than its bytes (small map
// entries, empty objects) is refused as it is read, by every reader
// (EachRun and EachRunExact alike), naming its line; a run of token ids
// of one digit, the densest a campaign writes, is read.
func TestRunLimitsRefuseDenseRuns(t *testing.T) {
	empties := `{"seq":2,"round":1,"arm":"a","start":"2026-12-06T00:00:00Z","seconds":0,"cooldown_s":0,"requests":[` + strings.TrimSuffix(strings.Repeat(`{},`, 20000), ",") + "]}\n"
	ids := make([]string, 100000)
	for i := range ids {
		ids[i] = fmt.Sprint(i % 10)
	}
	tokens := `{"seq":1,"round":1,"arm":"a","start":"2026-12-06T00:00:00Z","seconds":0,"cooldown_s":0,"token_ids":[` + strings.Join(ids, ",") + "]}\n"
	cases := []struct {
		name, file, want string
	}{
		{"small metrics", `{"seq":1,"round":1,"arm":"a","start":"2026-12-06T00:00:00Z","seconds":0,"cooldown_s":0}` + "\n" + denseLine(2, 900), "runs.jsonl:2: its run would hold about"},
		{"empty requests", `{"seq":1,"round":1,"arm":"a","start":"2026-12-06T00:00:00Z","seconds":0,"cooldown_s":0}` + "\n" + empties, "runs.jsonl:2: its run would hold about"},
		{"one-digit token ids", tokens, ""},
		{"empty requests under a name the decoder folds (long s)", `{"seq":1,"round":1,"arm":"a","start":"2026-12-06T00:00:00Z","seconds":0,"cooldown_s":0}` + "\n" + strings.Replace(empties, `"requests"`, `"REQUEſTS"`, 1), "runs.jsonl:2: its run would hold about"},
		{"small timings under a name in another case", `{"seq":1,"round":1,"arm":"a","start":"2026-12-06T00:00:00Z","seconds":0,"cooldown_s":0}` + "\n" + strings.Replace(denseLine(2, 900), `"metrics"`, `"Engine_Timings"`, 1), "runs.jsonl:2: its run would hold about"},
		{"empty requests under an escaped name", `{"seq":1,"round":1,"arm":"a","start":"2026-12-06T00:00:00Z","seconds":0,"cooldown_s":0}` + "\n" + strings.Replace(empties, `"requests"`, `"requ\u0065sts"`, 1), "runs.jsonl:2: its run would hold about"},
	}
	for _, c := range cases {
		for _, exact := range []bool{false, true} {
			var runs []schema.Run
			read := EachRun
			if exact {
				read = EachRunExact
			}
			err := read(strings.NewReader(c.file), RunsFile, AppendRun(&runs, RunsFile))
			switch {
			case c.want == "" && err != nil:
				t.Errorf("%s (exact %v): %v", c.name, exact, err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("%s (exact %v): %v, want %q", c.name, exact, err, c.want)
			}
		}
		// Line by line too (a chunk not laid out as decodebench writes).
		var runs []schema.Run
		err := EachRun(strings.NewReader(strings.ReplaceAll(c.file, "\n", "\r\n")), RunsFile, AppendRun(&runs, RunsFile))
		if c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) || c.want == "" && err != nil {
			t.Errorf("%s (line by line): %v", c.name, err)
		}
	}
}

// A runs.jsonl whose runs name more than MaxMetricNames distinct metrics,
// engine timings and counters is refused at the line that passes it,
// however few each run names; names repeated over runs count once.
func TestRunLimitsBoundMetricNames(t *testing.T) {
	var b strings.Builder
	for i := range MaxMetricNames + 10 {
		fmt.Fprintf(&b, `{"seq":%d,"round":1,"arm":"a","metrics":{"x%d":1,"wall_s":2},"engine_timings":{"t":1}}`+"\n", i+1, i)
	}
	var runs []schema.Run
	err := EachRun(strings.NewReader(b.String()), RunsFile, AppendRun(&runs, RunsFile))
	want := fmt.Sprintf("runs.jsonl:%d: its runs name more than %d distinct", MaxMetricNames-1, MaxMetricNames)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("%v, want %q", err, want)
	}
	runs = nil
	b.Reset()
	for i := range 3 * MaxMetricNames {
		fmt.Fprintf(&b, `{"seq":%d,"round":1,"arm":"a","metrics":{"x%d":1}}`+"\n", i+1, i%10)
	}
	if err := EachRun(strings.NewReader(b.String()), RunsFile, AppendRun(&runs, RunsFile)); err != nil || len(runs) != 3*MaxMetricNames {
		t.Fatalf("%d runs, %v", len(runs), err)
	}
}

// RunCost is what a decoded run holds: not under half of the heap a run
// of dense metrics really takes (else the bound would let a crafted file
// hold more than its budget), nor over three times it.
func TestRunCostMeetsTheHeap(t *testing.T) {
	for _, line := range []string{denseLine(1, 4000), `{"seq":1,"arm":"a","requests":[` + strings.TrimSuffix(strings.Repeat(`{"metrics":{"a":1}},`, 4000), ",") + "]}\n"} {
		var r schema.Run
		heap := heapOfDecoding(t, line, &r)
		cost, scanned := float64(RunCost(&r)), float64(LineCost([]byte(strings.TrimSuffix(line, "\n"))))
		if cost < heap/2 || cost > 3*heap || scanned < heap/2 || scanned > 3*heap {
			t.Errorf("RunCost %.0f bytes, LineCost %.0f, the heap %.0f a run (line %d bytes)", cost, scanned, heap, len(line))
		}
		t.Logf("RunCost %.0f bytes, LineCost %.0f, heap %.0f a run, line %d bytes", cost, scanned, heap, len(line))
	}
}

// Every committed record's runs are read within the bounds, at half of
// them at most.
func TestCommittedRunsWithinBounds(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "docs", "benchmark_results", "data", "*", RunsFile))
	if err != nil || len(files) == 0 {
		t.Fatalf("no committed runs: %v", err)
	}
	worst, share := 0.0, 0.0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.Split(bytes.TrimSuffix(data, []byte{'\n'}), []byte{'\n'})
		i := 0
		err = EachRun(bytes.NewReader(data), f, func(r schema.Run) error {
			c, l := float64(RunCost(&r)), float64(len(lines[i]))
			if sc := float64(LineCost(lines[i])); math.Abs(sc-c) > 0.1*c {
				t.Errorf("%s:%d: LineCost %.0f, RunCost of the decoded run %.0f", f, i+1, sc, c)
			}
			worst = max(worst, c/l)
			share = max(share, c/(MemoryPerByte*l+RunOverhead))
			i++
			return nil
		})
		if err != nil {
			t.Error(err)
		}
	}
	if share > 0.5 {
		t.Errorf("a committed run holds %.0f%% of what the bound lets it", 100*share)
	}
	t.Logf("the densest committed run holds %.2f times its line; the fullest %.0f%% of its bound", worst, 100*share)
}

// A run written on a host whose local zone is not UTC reads its times
// back in time.Local: they hold nothing beyond themselves (its zone's
// table is shared), so such a run is read like any other, where counting
// the zone in every time refused 15 of the 25 committed records' first
// runs rewritten in New York's local time.
func TestRunCostOfLocalTimes(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	defer func(l *time.Location) { time.Local = l }(time.Local)
	time.Local = ny
	now := time.Now()
	r := schema.Run{Seq: 1, Round: 1, Arm: "a", Start: now, LoadBefore: &schema.LoadSample{Time: now}, LoadAfter: &schema.LoadSample{Time: now}}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var got []schema.Run
	if err := EachRunExact(bytes.NewReader(append(b, '\n')), RunsFile, AppendRun(&got, RunsFile)); err != nil || len(got) != 1 {
		t.Fatalf("%d runs, %v", len(got), err)
	}
	if c, sc := RunCost(&got[0]), LineCost(b); c > 2*int64(len(b))+RunOverhead || math.Abs(float64(sc-c)) > 0.1*float64(c) {
		t.Errorf("RunCost %d, LineCost %d for a %d-byte line", c, sc, len(b))
	}
}

// GenericCost is what a line decoded into any holds (readsAlike's
// reading of a line not as decodebench writes it), within half and twice
// the heap; a line whose generic reading passes maxGenericBytes is
// refused by the exact reader before it is read so, naming its line.
func TestGenericCostMeetsTheHeap(t *testing.T) {
	ids := strings.TrimSuffix(strings.Repeat("1, ", 20000), ", ")
	objs := strings.TrimSuffix(strings.Repeat(`{"path": "", "sha256": ""}, `, 4000), ", ")
	for _, line := range []string{`{"token_ids": [` + ids + `]}`, `{"loaded": [` + objs + `]}`, denseLine(1, 4000)} {
		var v any
		heap := heapOfDecoding(t, line, &v)
		g := float64(GenericCost([]byte(line)))
		t.Logf("GenericCost %.0f, heap %.0f, line %d bytes", g, heap, len(line))
		if g < heap/2 || g > 2*heap {
			t.Errorf("GenericCost %.0f bytes, the heap %.0f (line %d bytes)", g, heap, len(line))
		}
	}
	defer func(n int64) { maxGenericBytes = n }(maxGenericBytes)
	maxGenericBytes = 1 << 20
	head := `{"seq":1,"round":1,"arm":"a","start":"2026-12-06T00:00:00Z","seconds":0,"cooldown_s":0,"token_ids":[`
	var runs []schema.Run
	many := strings.TrimSuffix(strings.Repeat("1, ", 200000), ", ")
	err := EachRunExact(strings.NewReader(head+many+"]}\n"), RunsFile, AppendRun(&runs, RunsFile))
	if err == nil || !strings.Contains(err.Error(), "runs.jsonl:1: the line is not as decodebench writes it, and reading it as generic JSON") {
		t.Errorf("%v", err)
	}
}

// heapOfDecoding is the heap that decoding line into a value like *into
// holds, a decoding of twenty held at once; *into is the last decoded.
func heapOfDecoding[T any](t *testing.T, line string, into *T) float64 {
	t.Helper()
	const n = 20
	held := make([]T, n)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range held {
		if err := json.Unmarshal([]byte(line), &held[i]); err != nil {
			t.Fatal(err)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	*into = held[n-1]
	runtime.KeepAlive(held)
	return float64(after.HeapAlloc-before.HeapAlloc) / n
}
