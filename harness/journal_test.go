package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// shortFile is a journal file on a disk that fills up: it takes room
// bytes, then writes part of what it is given and fails with ENOSPC.
type shortFile struct {
	*os.File
	room int
}

func (f *shortFile) Write(p []byte) (int, error) {
	if len(p) <= f.room {
		f.room -= len(p)
		return f.File.Write(p)
	}
	n, _ := f.File.Write(p[:f.room])
	f.room = 0
	return n, syscall.ENOSPC
}

// On a full disk a run is either whole in runs.jsonl or not there at all:
// the half line a failing write left is cut back, so a resume never
// appends onto it, and every line stays a run.
func TestJournalFullDiskLeavesNoTornLine(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, recorder.RunsFile)
	j, err := OpenJournalIn(heldDir(t, dir), recorder.RunsFile)
	if err != nil {
		t.Fatal(err)
	}
	j.f = &shortFile{File: j.f.(*os.File), room: 300}
	run := func(seq int) schema.Run {
		return schema.Run{Seq: seq, Round: 1, Arm: "a", Output: strings.Repeat("x", 100)}
	}
	if err := j.Append(run(1)); err != nil {
		t.Fatal(err)
	}
	err = j.Append(run(2))
	if err == nil || !strings.Contains(err.Error(), "no space left") || !strings.Contains(err.Error(), "cut back") {
		t.Fatalf("append on a full disk: %v", err)
	}
	j.Close()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(b, []byte("\n")) || bytes.Count(b, []byte("\n")) != 1 {
		t.Fatalf("journal after a failed append: %q", b)
	}
	// The disk has room again: the journal goes on from its last whole run.
	j, err = OpenJournalIn(heldDir(t, dir), recorder.RunsFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Append(run(2)); err != nil {
		t.Fatal(err)
	}
	j.Close()
	runs, err := recorder.ReadRuns(path)
	if err != nil || len(runs) != 2 || runs[1].Seq != 2 {
		t.Fatalf("runs %+v, %v", runs, err)
	}
}

// A journal that a crash left with half a line is repaired on resume: the
// torn line is cut (and said), never appended onto.
func TestResumeCutsTornJournalLine(t *testing.T) {
	s := parseTest(t, testScenario)
	out, dataDir := craftedFolder(t, s, "t-x-2026-01-01")
	st := state{ScenarioPath: "t.yaml", ScenarioHash: s.Hash(), EngineSHA256: "never-this"}
	if err := writeStateIn(heldDir(t, dataDir), st); err != nil {
		t.Fatal(err)
	}
	whole, _ := json.Marshal(schema.Run{Seq: 1, Round: 1, Arm: "a"})
	torn := append(append(whole, '\n'), []byte(`{"seq":2,"round":1,"arm":"b","metr`)...)
	path := filepath.Join(dataDir, recorder.RunsFile)
	if err := os.WriteFile(path, torn, 0o644); err != nil {
		t.Fatal(err)
	}
	var progress bytes.Buffer
	// The resume stops at the engine check (no such engine here), after
	// the journal was repaired.
	_, err := Resume(context.Background(), dataDir, s, Options{OutDir: out, Progress: &progress})
	t.Logf("resume: %v", err)
	if err == nil || strings.Contains(err.Error(), "runs.jsonl") {
		t.Fatalf("resume: %v", err)
	}
	b, _ := os.ReadFile(path)
	if !bytes.Equal(b, append(whole, '\n')) {
		t.Errorf("journal after resume: %q", b)
	}
	if !strings.Contains(progress.String(), "torn line") {
		t.Errorf("no warning: %q", progress.String())
	}
	// A whole journal, or none, is left as it is.
	for _, body := range []string{"", string(whole) + "\n"} {
		os.WriteFile(path, []byte(body), 0o644)
		if cut, err := RepairJournal(path); cut != 0 || err != nil {
			t.Errorf("%q: cut %d, %v", body, cut, err)
		}
	}
	// One torn line alone is cut to nothing.
	os.WriteFile(path, []byte(`{"seq":1`), 0o644)
	if cut, err := RepairJournal(path); cut != 8 || err != nil {
		t.Errorf("lone torn line: cut %d, %v", cut, err)
	}
}

// nanExec reports values no engine can have measured.
type nanExec struct{}

func (nanExec) Execute(_ context.Context, slot Slot, run *schema.Run) error {
	run.Metrics = map[string]float64{schema.DecodeTokS: 100 + float64(slot.Seq%3), schema.WallS: 1, "x": math.NaN()}
	run.EngineTimings = map[string]float64{"predicted_per_second": math.Inf(1)}
	run.Counters = map[string]schema.CounterReading{"c": {Value: math.NaN()}}
	run.Output = "same"
	return nil
}

// A NaN that reaches a run (from a metrics page, a reply field, a
// command's output) no longer kills the journal with "json: unsupported
// value: NaN": the campaign writes its record, the value is absent, and
// the run says what it was.
func TestNaNNeverReachesTheJournal(t *testing.T) {
	c := testCampaign(t, strings.Replace(testScenario, "rounds: 6", "rounds: 2, cooldown: 0s", 1))
	c.exec = nanExec{}
	out := executeTest(t, context.Background(), c)
	runs, err := recorder.ReadRuns(filepath.Join(c.dataDir, recorder.RunsFile))
	// The counter's NaN meets no expectation: the campaign stops at its
	// first run (on_gate_failure: stop), which is written all the same.
	if err != nil || len(runs) == 0 || len(runs) != len(out.Record.Runs) {
		t.Fatalf("runs %d: %v %+v", len(runs), err, out.Record.Method)
	}
	r := runs[0]
	if _, ok := r.Metrics["x"]; ok || r.EngineTimings["predicted_per_second"] != 0 || !r.Counters["c"].Absent || !r.Counters["c"].Impossible {
		t.Errorf("impossible values stored: %+v", r)
	}
	got := map[string]bool{}
	for _, iv := range r.Impossible {
		got[iv.Source+"="+iv.Value] = iv.Why == schema.NotFinite
	}
	for _, want := range []string{"metrics.x=NaN", "engine_timings.predicted_per_second=+Inf", "counter c=NaN"} {
		if !got[want] {
			t.Errorf("impossible %+v lacks %s", r.Impossible, want)
		}
	}
	if out.Record == nil || out.Record.Verdict == "" || out.Record.Verdict == schema.Valid {
		t.Errorf("no record, or a VALID one over a NaN counter: %+v", out.Record)
	}
}

// A run's error is stored at most maxRunError long, whatever built it.
func TestRunErrorClipped(t *testing.T) {
	if s := clipError(strings.Repeat("é", maxRunError)); len(s) > maxRunError+64 || !strings.HasSuffix(s, "more bytes)") {
		t.Errorf("clipped to %d bytes: %q", len(s), s[len(s)-40:])
	}
	if s := clipError("short"); s != "short" {
		t.Errorf("short error changed: %q", s)
	}
}

// A journal this scenario's campaign cannot have written is refused before
// anything runs: the resume plans its schedule from the last slot, and a
// slot of 9e18 once spun it for ever, deaf to SIGTERM.
func TestResumeRefusesAJournalBeyondTheSchedule(t *testing.T) {
	s := parseTest(t, testScenario) // 6 rounds × 2 arms
	for _, c := range []struct {
		name string
		runs []schema.Run
		want string
	}{
		{"a slot far past the schedule", []schema.Run{{Seq: 1, Round: 1, Arm: "a"}, {Seq: 9e18, Round: 1, Arm: "b"}}, "slot 9000000000000000000, outside the schedule's 12 runs (2 arms × 6 rounds)"},
		{"one slot past it", []schema.Run{{Seq: 13, Round: 6, Arm: "a"}}, "slot 13, outside the schedule's 12 runs"},
		{"slot 0", []schema.Run{{Seq: 0, Round: 1, Arm: "a"}}, "slot 0, outside"},
		{"slots out of order", []schema.Run{{Seq: 3, Round: 2, Arm: "b"}, {Seq: 2, Round: 1, Arm: "b"}}, "slot 2, after slot 3"},
		{"a round past the schedule", []schema.Run{{Seq: 1, Round: 7, Arm: "a"}}, `slot 1, is round 7 of arm "a", where the plan has round 1 of arm "a"`},
		// A last round forged onto the first slot would make the first
		// look the last.
		{"the last round on the first slot", []schema.Run{{Seq: 1, Round: 6, Arm: "a"}}, `slot 1, is round 6 of arm "a", where the plan has round 1 of arm "a"`},
		{"another arm than the plan's", []schema.Run{{Seq: 1, Round: 1, Arm: "b"}}, `slot 1, is round 1 of arm "b", where the plan has round 1 of arm "a"`},
		{"an arm it does not have", []schema.Run{{Seq: 1, Round: 1, Arm: "z"}}, `slot 1, is round 1 of arm "z"`},
		// The next attempt once wrapped round to a negative count, which
		// retried the failing slot without end.
		{"an attempt past any real one", []schema.Run{{Seq: 1, Round: 1, Arm: "a", Attempt: math.MaxInt}}, "attempt 9223372036854775807 of its slot, outside 0 to 1000000"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, dataDir := craftedFolder(t, s, "t-x-2026-01-01")
			st := state{ScenarioPath: "t.yaml", ScenarioHash: s.Hash(), EngineSHA256: "never-this"}
			if err := writeStateIn(heldDir(t, dataDir), st); err != nil {
				t.Fatal(err)
			}
			var body []byte
			for _, r := range c.runs {
				b, _ := json.Marshal(r)
				body = append(append(body, b...), '\n')
			}
			if err := os.WriteFile(filepath.Join(dataDir, recorder.RunsFile), body, 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			_, err := Resume(ctx, dataDir, s, Options{OutDir: out, Progress: io.Discard})
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "nothing was run") {
				t.Fatalf("resume: %v, want %q", err, c.want)
			}
		})
	}
	// The campaign's own journal passes: its plan's slots in order, a
	// retried slot and a resume's attempts included.
	c := testCampaign(t, testScenario)
	plan, err := c.plan(6)
	if err != nil {
		t.Fatal(err)
	}
	var runs []schema.Run
	for _, sl := range []Slot{plan[0], plan[1], plan[1], plan[1], plan[11]} {
		runs = append(runs, schema.Run{Seq: sl.Seq, Round: sl.Round, Arm: sl.Arm, Attempt: len(runs) + 1})
	}
	if err := c.journalFits(runs); err != nil {
		t.Errorf("a journal the campaign writes: %v", err)
	}
}

// A journal whose tail holds no line end for longer than a run's line may
// be is refused, not searched back through whole: a sparse file of 30 GB
// once held a resume for minutes, deaf to SIGTERM.
func TestRepairJournalBoundsItsSearch(t *testing.T) {
	path := filepath.Join(t.TempDir(), recorder.RunsFile)
	whole, _ := json.Marshal(schema.Run{Seq: 1, Round: 1, Arm: "a"})
	if err := os.WriteFile(path, append(whole, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, 1<<30); err != nil { // sparse: costs no disk
		t.Fatal(err)
	}
	start := time.Now()
	cut, err := RepairJournal(path)
	if err == nil || cut != 0 || !strings.Contains(err.Error(), "hold no line's end") {
		t.Fatalf("cut %d, %v", cut, err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("the repair took %v", d)
	}
	if fi, _ := os.Stat(path); fi.Size() != 1<<30 {
		t.Errorf("the refused journal was cut to %d bytes", fi.Size())
	}
}
