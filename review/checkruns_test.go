package review

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// A record whose runs hold outputs of megabytes passes check without
// check holding runs.jsonl whole, copying each output to hash it or
// turning it into runes to quote 24 characters of it: what check
// allocates is within twice the file (every output decoded once, one
// line at a time) and a constant, where it was over eight times.
func TestCheckBigOutputsLinear(t *testing.T) {
	dir := t.TempDir()
	p := bigOutputsRecord(t, dir, craftedName, 2<<20)
	st, err := os.Stat(filepath.Join(dir, "data", craftedName, "runs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	probs := Check(p)
	runtime.ReadMemStats(&after)
	if len(probs) != 0 {
		t.Fatalf("check: %v", probs)
	}
	if n, limit := after.TotalAlloc-before.TotalAlloc, 2*uint64(st.Size())+32<<20; n > limit {
		t.Errorf("check of a %d-byte runs.jsonl allocated %d bytes, more than %d", st.Size(), n, limit)
	}
}

// Records checked at once, on every worker, hold no more runs.jsonl
// bytes together than the budget: with a budget of one record's, CheckAll
// on four workers checks them one at a time, and each passes.
func TestCheckAllRunsBudget(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for i := range 4 {
		paths = append(paths, bigOutputsRecord(t, dir, fmt.Sprintf("%s-%d", craftedName, i+2), 256<<10))
	}
	st, err := os.Stat(filepath.Join(dir, "data", craftedName+"-2", "runs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	old := runsBudget
	defer func() { runsBudget = old }()
	runsBudget = newBudget(st.Size() + st.Size()/2)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	for _, c := range CheckAll(paths, nil) {
		if len(c.Problems) != 0 {
			t.Errorf("%s: %v", c.Path, c.Problems)
		}
	}
	if runsBudget.peak > runsBudget.limit || runsBudget.peak < st.Size() {
		t.Errorf("%d bytes of runs held at once, the budget %d", runsBudget.peak, runsBudget.limit)
	}
}

// A record that names its runs.jsonl many times has it read once, not
// once for each time it is named (20,000 times 5 MB), and check says it
// is named more than once.
func TestCheckFileNamedManyTimes(t *testing.T) {
	dir := t.TempDir()
	p := bigOutputsRecord(t, dir, craftedName, 256<<10)
	rec, err := recorder.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	runs := rec.FileSum(recorder.RunsFile)
	for range 20000 {
		rec.Files = append(rec.Files, schema.FileSum{Path: recorder.RunsFile, SHA256: runs})
	}
	if err := recorder.WriteFile(p, rec); err != nil {
		t.Fatal(err)
	}
	var probs []Problem
	within(t, 30*time.Second, "check of a record naming runs.jsonl 20,000 times", func() { probs = Check(p) })
	if all := fmt.Sprint(probs); !strings.Contains(all, "names runs.jsonl more than once") {
		t.Errorf("check found %.1000s, want runs.jsonl named more than once", all)
	}
}
