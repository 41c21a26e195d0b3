package review

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"testing"

	"github.com/decodebench/decodebench/history"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// padOutputs lengthens the output of every run of the record at path by
// n bytes of text, each run's its own (no two alike), and makes the
// record vouch for the runs.jsonl so written (its sha256 in the record's
// list of files, as a hostile record would): generated text of a
// campaign of long answers, or of a pull request's forgery. It returns
// how many runs it padded.
func padOutputs(t *testing.T, path string, n int) int {
	t.Helper()
	rec, err := recorder.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	runsPath, err := recorder.DataPath(path, rec, recorder.RunsFile)
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(runsPath)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	padded := 0
	for _, line := range bytes.SplitAfter(src, []byte("\n")) {
		if i := bytes.Index(line, []byte(`"output":"`)); i >= 0 {
			i += len(`"output":"`)
			pad := bytes.Repeat([]byte(fmt.Sprintf("run %06d pads its text. ", padded)), n/25+1)[:n]
			line = append(append(append([]byte{}, line[:i]...), pad...), line[i:]...)
			padded++
		}
		out.Write(line)
	}
	if err := os.WriteFile(runsPath, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(out.Bytes())
	md, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`("path": "runs.jsonl",\s*"sha256": ")[0-9a-f]+`)
	if !re.Match(md) {
		t.Fatalf("%s names no sha256 for runs.jsonl", path)
	}
	if err := os.WriteFile(path, re.ReplaceAll(md, []byte("${1}"+hex.EncodeToString(sum[:]))), 0o644); err != nil {
		t.Fatal(err)
	}
	return padded
}

// diff holds what it reads of two records' runs in memory of the order of
// their count, not of runs.jsonl's size: a record of long generated text
// (a hostile one near the 1 GiB cap of runs.jsonl) made diff hold every
// run's text of both records whole, several GiB, before check refused it.
func TestDiffHoldsNoRunText(t *testing.T) {
	dir := t.TempDir()
	oldPath := copyCommitted(t, filepath.Join(dir, "old"), "spec-draft-epyc-2026-11-29")
	newPath := copyCommitted(t, filepath.Join(dir, "new"), "spec-draft-epyc-2026-11-29-2")
	const pad = 2 << 20
	runs := padOutputs(t, oldPath, pad) + padOutputs(t, newPath, pad)
	if runs < 30 {
		t.Fatalf("only %d runs padded", runs)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	old, nu, err := LoadPair(oldPath, newPath)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	held := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	// The runs' texts are 2 MiB × runs (over 60 MiB); their figures a
	// few KB a run.
	if limit := int64(runs) * 64 << 10; held > limit {
		t.Errorf("diff holds %d MiB of two records' runs (%d runs padded by %d MiB of text each): more than %d KiB a run", held>>20, runs, pad>>20, limit/int64(runs)>>10)
	}
	for _, rec := range []*schema.Record{old, nu} {
		for _, r := range rec.Runs {
			text := len(r.Output) + len(r.Reasoning) + len(r.TokenIDs) + len(r.Streams)
			for _, q := range r.Requests {
				text += len(q.Output) + len(q.TokenIDs)
			}
			if text > 0 {
				t.Fatalf("run %d of %s keeps %d bytes of text or token ids", r.Seq, rec.Feature, text)
			}
		}
	}
	runtime.KeepAlive(old)
	runtime.KeepAlive(nu)
}

// What diff reads of a record's runs' figures is what it read of the
// runs whole: every pair of committed records of a feature compares alike
// (conditions, metrics, ratios, refusals), and each record is the same
// campaign (history.Campaign) and the same samples.
func TestFiguresCompareAsRuns(t *testing.T) {
	names, err := filepath.Glob("../docs/benchmark_results/*.md")
	if err != nil || len(names) < 10 {
		t.Fatalf("records: %d, %v", len(names), err)
	}
	full, figures := map[string]*schema.Record{}, map[string]*schema.Record{}
	for _, n := range names {
		if filepath.Base(n) == "README.md" {
			continue
		}
		if full[n], err = recorder.Load(n); err != nil {
			t.Fatal(err)
		}
		if figures[n], err = recorder.LoadFigures(n); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(history.CampaignOf(full[n]), history.CampaignOf(figures[n])) {
			t.Errorf("%s: its figures are another campaign than its runs", n)
		}
		for i, r := range full[n].Runs {
			f := figures[n].Runs[i]
			if r.OK() != f.OK() || r.Arm != f.Arm || !reflect.DeepEqual(r.Analysed(), f.Analysed()) || !reflect.DeepEqual(r.LoadBefore, f.LoadBefore) {
				t.Errorf("%s: run %d reads otherwise from its figures", n, r.Seq)
			}
		}
	}
	pairs := 0
	for _, a := range names {
		for _, b := range names {
			if full[a] == nil || full[b] == nil || a == b || full[a].Feature != full[b].Feature {
				continue
			}
			pairs++
			for _, force := range []bool{false, true} {
				want := Compare(a, full[a], b, full[b], DiffOptions{Threshold: DefaultThreshold, Force: force})
				got := Compare(a, figures[a], b, figures[b], DiffOptions{Threshold: DefaultThreshold, Force: force})
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s → %s (force %v): the figures compare otherwise than the runs", filepath.Base(a), filepath.Base(b), force)
				}
			}
		}
	}
	if pairs < 20 {
		t.Fatalf("only %d pairs compared", pairs)
	}
}
