package review

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// The crafted records of the reviewer tools' bounds: generated under a
// test's temporary folder, never committed.

// craftedName is the committed record the crafted records are made from:
// 18 runs, output identity on.
const craftedName = "spec-draft-epyc-2026-11-29"

// committedRecord loads a committed record, its runs, its stored scenario
// and the scenario parsed as check parses it.
func committedRecord(tb testing.TB, name string) (*schema.Record, []byte, *scenarios.Scenario) {
	tb.Helper()
	src := filepath.Join("..", "docs", "benchmark_results", name+".md")
	rec, err := recorder.Load(src)
	if err != nil {
		tb.Fatal(err)
	}
	scen, err := recorder.ReadDataFile(src, rec, recorder.ScenarioFile, scenarios.MaxScenarioBytes)
	if err != nil {
		tb.Fatal(err)
	}
	s, _, err := scenarios.Parse(recorder.ScenarioFile, ".", scen, scenarios.Options{Offline: true, PromptText: rec.Scenario.Request.Prompt, Set: rec.Scenario.Overrides})
	if err != nil {
		tb.Fatal(err)
	}
	return rec, scen, s
}

// writeRecordRuns writes rec with runs as the harness would into dir
// (the record dir/name.md, its data folder dir/data/name): runs.jsonl
// and the stored scenario, the analysis derived again, every file
// hashed, the Markdown rendered. It returns the record's path.
func writeRecordRuns(tb testing.TB, dir, name string, rec *schema.Record, scen []byte, s *scenarios.Scenario, runs []schema.Run) string {
	tb.Helper()
	data := filepath.Join(dir, "data", name)
	if err := os.MkdirAll(data, 0o755); err != nil {
		tb.Fatal(err)
	}
	f, err := os.Create(filepath.Join(data, recorder.RunsFile))
	if err != nil {
		tb.Fatal(err)
	}
	enc := json.NewEncoder(f)
	for _, r := range runs {
		if err := enc.Encode(r); err != nil {
			tb.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, recorder.ScenarioFile), scen, 0o644); err != nil {
		tb.Fatal(err)
	}
	r := *rec
	r.DataDir = "data/" + name
	r.Runs = runs
	r.Analysis, r.Verdict, _ = analysis.Record(s.Policy, runs, r.Method, r.Schema)
	if r.Files, err = recorder.HashDataDir(data); err != nil {
		tb.Fatal(err)
	}
	r.Plots = nil // the figures are not copied
	r.Method.Footprint = schema.FootprintTotal(runs)
	// The state of the committed record rec was read from.
	copyState(tb, filepath.Join("..", "docs", "benchmark_results", filepath.FromSlash(rec.DataDir)), data, r.Scenario.Overrides)
	out := filepath.Join(dir, name+".md")
	if err := recorder.WriteFile(out, &r); err != nil {
		tb.Fatal(err)
	}
	return out
}

// writeMissingLogs writes, for every run that names a log the data folder
// does not hold, a log as the engine writes it, with an empty measured
// window: the harness names every run's log (schema.RunLog), launches its
// arm's command line (rec's, ${PORT} filled with the run's port) and
// writes each marker while the run lasts.
func writeMissingLogs(tb testing.TB, data string, rec *schema.Record, runs []schema.Run) {
	tb.Helper()
	for _, r := range runs {
		p := filepath.Join(data, r.Log)
		if _, err := os.Stat(p); r.Log == "" || err == nil {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		argv, _ := armCommand(rec, r)
		cmd := scenarios.ExpandPort(strings.Join(argv, " "), strconv.Itoa(r.Port))
		mark := func(ms int, text string) string {
			return engine.MarkerPrefix + r.Start.Add(time.Duration(ms)*time.Millisecond).UTC().Format(time.RFC3339Nano) + " " + text + "\n"
		}
		log := mark(1, "start: "+cmd) + mark(2, "measured window start") + mark(3, "measured window end")
		if err := os.WriteFile(p, []byte(log), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// bigOutputsRecord writes into dir a record made from craftedName whose
// every run holds an output of size bytes, each run's its own text (its
// output_sha256 set to match), so that check passes it: the shape of
// issue 31's 52 KB record with a 360 MB runs.jsonl (size 20 MB).
func bigOutputsRecord(tb testing.TB, dir, name string, size int) string {
	tb.Helper()
	rec, scen, s := committedRecord(tb, craftedName)
	runs := append([]schema.Run{}, rec.Runs...)
	for i := range runs {
		r := &runs[i]
		if r.Output == "" {
			continue
		}
		r.Output = craftedText(uint64(i+1), size)
		r.OutputSHA256 = sha(r.Output)
		r.TokenIDs = nil
	}
	writeMissingLogs(tb, filepath.Join(dir, "data", name), rec, runs)
	return writeRecordRuns(tb, dir, name, rec, scen, s, runs)
}

// craftedText is size bytes of lower-case letters and spaces drawn from
// seed.
func craftedText(seed uint64, size int) string {
	b := make([]byte, size)
	x := seed*0x9e3779b97f4a7c15 + 1
	for i := range b {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		if c := x % 27; c == 26 {
			b[i] = ' '
		} else {
			b[i] = byte('a' + c)
		}
	}
	return string(b)
}

// copyState copies a data folder's campaign state (campaign.json, which
// the harness writes as a campaign starts) into another, where there is
// one, with the overrides of the record crafted from it (as a campaign
// started with them would have written it).
func copyState(tb testing.TB, from, to string, overrides []string) {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(from, campaignStateFile))
	if err != nil {
		return
	}
	var st map[string]any
	if err := json.Unmarshal(b, &st); err != nil {
		tb.Fatal(err)
	}
	delete(st, "overrides")
	if len(overrides) > 0 {
		st["overrides"] = overrides
	}
	if b, err = json.Marshal(st); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(to, campaignStateFile), b, 0o644); err != nil {
		tb.Fatal(err)
	}
}
