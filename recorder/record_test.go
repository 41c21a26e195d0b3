package recorder

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

var update = flag.Bool("update", false, "rewrite golden files")

const fixedScenario = `feature: spec-draft
title: Draft vs classic
engine:
  preset: llama.cpp
  command: [llama-server, -m, t.gguf, --port, "${PORT}"]
  request: {prompt: Once upon a time, max_tokens: 128, ignore_eos: true}
arms:
  - name: classic
    args: [--spec-type, none]
  - name: draft
    args: [--spec-type, draft-simple]
    env: {A: "1"}
baseline: classic
schedule: {rounds: 2, cooldown: 2s}
counters:
  - name: drafts
    metric: llamacpp:spec_decode_num_drafts_total
    expect: {classic: "== 0", draft: "> 0"}
exactness: {compare: [draft], on_mismatch: report, strip: ['^draft model loaded.*\\n']}
unmeasured: [Prefill throughput.]
`

// fixedRecord is a record of two rounds whose analysis is computed by the
// production path from synthetic runs.
func fixedRecord(verdict schema.Verdict) *schema.Record {
	s, _, err := scenarios.Parse("t.yaml", ".", []byte(fixedScenario), scenarios.Options{Offline: true})
	if err != nil {
		panic(err)
	}
	t0 := time.Date(2026, 11, 29, 14, 0, 0, 0, time.UTC)
	load := func(s float64) *schema.LoadSample {
		return &schema.LoadSample{Time: t0.Add(time.Duration(s * float64(time.Second))), Load1: 0.5 + s/100, CPUBusyPct: 3, MemAvailableBytes: 20 << 30}
	}
	dirty := false
	rec := &schema.Record{
		Schema: schema.Schema, Feature: "spec-draft", Title: "Draft vs classic", Hardware: "xeon", Date: "2026-11-29",
		Scenario: schema.ScenarioInfo{
			Path: "embedded:llamacpp-speculative.yaml", Hash: "0123456789abcdef0123", Baseline: "classic", Primary: "decode_tok_s",
			Arms: []schema.ArmInfo{
				{Name: "classic", Command: []string{"llama-server", "-m", "t.gguf", "--port", "${PORT}", "--spec-type", "none"}},
				{Name: "draft", Command: []string{"llama-server", "-m", "t.gguf", "--port", "${PORT}", "--spec-type", "draft-simple"}, Env: map[string]string{"A": "1"}},
			},
			Request:    schema.RequestInfo{Endpoint: "/completion", Prompt: "Once upon a time", MaxTokens: 128, IgnoreEOS: true},
			Unmeasured: []string{"Prefill throughput."},
		},
		Engine: schema.EngineInfo{Command: "llama-server", Path: "/usr/bin/llama-server", SHA256: "ab12", Version: "version: 0.7.0 (build 11669)", SourceDir: "/src/llama.cpp", SourceCommit: "deadbeef", SourceDirty: &dirty,
			Models: []schema.ModelFile{{Arg: "t.gguf", Path: "/m/t.gguf", Bytes: 112 << 20, SHA256: "cafe"}}},
		Machine: schema.MachineInfo{Hostname: "vm", OS: "linux", Platform: "debian", PlatformVersion: "12", Kernel: "6.1", Arch: "x86_64",
			CPUModel: "Intel(R) Xeon(R) Processor", Cores: 2, Threads: 2, MemoryBytes: 24 << 30, Slug: "xeon"},
		Method: schema.Method{Rounds: 2, Warmup: 1, Order: "rotate", Seed: 1, Cooldown: "2s", Planned: []string{"classic", "draft", "draft", "classic"},
			Started: t0, Finished: t0.Add(40 * time.Second), Version: "v0.1.0", Commit: "abc123",
			StoppedBy: "fixed schedule of 2 rounds", RoundsRun: 2, OnFailure: "abort", Outliers: "flag",
			Confidence: 0.95, Alpha: 0.05, MinEffect: 0.01, MaxSpread: 0.04, MaxContended: 0.2, ContendedCPU: 0.1, MaxDrift: 0.03, Resamples: 10000},
		Counters: []schema.CounterSpec{{Name: "drafts", Kind: "metric", Expr: "llamacpp:spec_decode_num_drafts_total", Expect: map[string]string{"classic": "== 0", "draft": "> 0"}}},
		DataDir:  "data/spec-draft-xeon-2026-11-29",
	}
	vals := map[string][]float64{"classic": {150, 152}, "draft": {180, 186}}
	idx := map[string]int{}
	for i, arm := range rec.Method.Planned {
		v := vals[arm][idx[arm]]
		idx[arm]++
		drafts, out := 0.0, "the same text"
		if arm == "draft" {
			drafts, out = 40, "the same texT"
			if verdict == schema.Rejected && i == 2 {
				drafts = 0
			}
		}
		rec.Runs = append(rec.Runs, schema.Run{
			Seq: i + 1, Round: i/2 + 1, Arm: arm, Start: t0.Add(time.Duration(i*10) * time.Second), Seconds: 8, CooldownS: 2, Port: 40000 + i,
			Metrics: map[string]float64{"decode_tok_s": v, "e2e_tok_s": v * 0.9, "ttft_ms": 30, "wall_s": 0.8},
			Tokens:  128, TokenSource: "timings.predicted_n",
			EngineTimings: map[string]float64{"predicted_per_second": v * 1.001},
			Counters:      map[string]schema.CounterReading{"drafts": {Value: drafts}},
			LoadBefore:    load(float64(i * 10)), LoadAfter: load(float64(i*10 + 8)),
			Contention:   &schema.ContentionSample{Busy: 0.9, Measured: 0.88, Others: 0.02},
			OutputSHA256: "feedface00112233", Output: out, Log: "logs/run.log",
		})
	}
	rec.Analysis, rec.Verdict = analyze(s.Policy, rec.Runs, rec.Method, rec.Schema)
	if rec.Verdict.ShowsResults() {
		rec.Plots = []string{"timeline.png", "timeline.svg", "distributions.png", "distributions.svg"}
	}
	return rec
}

func TestMarkdownGolden(t *testing.T) {
	for _, v := range []schema.Verdict{schema.Inconclusive, schema.Rejected} {
		t.Run(string(v), func(t *testing.T) {
			var buf bytes.Buffer
			if err := Markdown(&buf, fixedRecord(v)); err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join("testdata", strings.ToLower(string(v))+".golden.md"), buf.Bytes())
		})
	}
}

func TestSectionsInOrder(t *testing.T) {
	var buf bytes.Buffer
	Markdown(&buf, fixedRecord(schema.Valid))
	md := buf.String()
	last := -1
	for _, h := range []string{"# Draft vs classic — INCONCLUSIVE", "## Summary", "## Engine", "## Machine", "## Method", "## Counter evidence", "## Results", "## Raw runs", "## Not measured", "## Data"} {
		i := strings.Index(md, h)
		if i < 0 || i < last {
			t.Fatalf("section %q missing or out of order", h)
		}
		last = i
	}
}

func TestRejectedShowsNoResults(t *testing.T) {
	var buf bytes.Buffer
	Markdown(&buf, fixedRecord(schema.Rejected))
	md := buf.String()
	if strings.Contains(md, "## Results") {
		t.Error("a REJECTED record shows a results table")
	}
	if !strings.Contains(md, "counter `drafts` = 0, expected > 0") || !strings.Contains(md, "❌") {
		t.Error("a REJECTED record does not say which expectation failed")
	}
}

func TestParseRoundTrip(t *testing.T) {
	rec := fixedRecord(schema.Valid)
	var buf bytes.Buffer
	if err := Markdown(&buf, rec); err != nil {
		t.Fatal(err)
	}
	got, err := Parse(&buf)
	if err != nil {
		t.Fatal(err)
	}
	// The data block leaves the runs out: they are in runs.jsonl.
	rec.Runs = nil
	if !reflect.DeepEqual(normalize(t, got), normalize(t, rec)) {
		t.Errorf("parsed record differs from the rendered one")
	}
}

// normalize strips monotonic clock readings so DeepEqual compares values.
func normalize(t *testing.T, r *schema.Record) *schema.Record {
	t.Helper()
	var buf bytes.Buffer
	Markdown(&buf, r)
	out, err := Parse(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestParseErrors(t *testing.T) {
	tests := map[string]string{
		"no block":   "# hello\n",
		"unclosed":   "```" + DataFence + "\n{}\n",
		"bad json":   "```" + DataFence + "\n{\n```\n",
		"bad schema": "```" + DataFence + "\n{\"schema\": \"other\"}\n```\n",
	}
	for name, in := range tests {
		if _, err := Parse(strings.NewReader(in)); err == nil {
			t.Errorf("%s: parsed without error", name)
		}
	}
}

func TestReserveNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for i := 0; i < 3; i++ {
		rec, data, err := Reserve(dir, "spec-draft", "xeon", "2026-11-29")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(rec, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(data); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, filepath.Base(rec))
	}
	want := []string{"spec-draft-xeon-2026-11-29.md", "spec-draft-xeon-2026-11-29-2.md", "spec-draft-xeon-2026-11-29-3.md"}
	if !reflect.DeepEqual(paths, want) {
		t.Errorf("got %v, want %v", paths, want)
	}
	for _, bad := range [][3]string{{"../x", "xeon", "2026-11-29"}, {"x", "../h", "2026-11-29"}, {"x", "xeon", "29/11/2026"}, {"x/y", "xeon", "2026-11-29"}} {
		if _, _, err := Reserve(dir, bad[0], bad[1], bad[2]); err == nil {
			t.Errorf("Reserve(%q) accepted", bad)
		}
	}
}

// A record whose arms ran their own engines (v4) shows one identity block
// per engine, naming its arms, and a text counter's readings as text; it
// parses back to the same record.
func TestMarkdownEnginesPerArm(t *testing.T) {
	rec := fixedRecord(schema.Valid)
	rec.Schema = schema.SchemaV4
	dirty, older := true, true
	head := schema.EngineInfo{Command: "/pr/llama-server", Path: "/pr/llama-server", SHA256: "cd34", Version: "version: 0.7.1 (build 11670)",
		SourceDir: "/src/pr", SourceCommit: "f00d", SourceDirty: &dirty, BinaryOlderThanSource: older, AllowDirty: "benchmarking a work in progress"}
	rec.Engines = []schema.ArmsEngine{{Arms: []string{"classic"}, EngineInfo: rec.Engine}, {Arms: []string{"draft"}, EngineInfo: head}}
	rec.Counters = append(rec.Counters, schema.CounterSpec{Name: "build", Kind: schema.SourceProps, Expr: "build_info", Expect: map[string]string{"classic": "== b11669", "draft": "!= b11669"}})
	for i := range rec.Runs {
		b := "b11669"
		if rec.Runs[i].Arm == "draft" {
			b = "b11670"
		}
		rec.Runs[i].Counters["build"] = schema.CounterReading{Text: b, Value: 0}
	}
	var buf bytes.Buffer
	if err := Markdown(&buf, rec); err != nil {
		t.Fatal(err)
	}
	golden(t, filepath.Join("testdata", "engines.golden.md"), buf.Bytes())
	md := buf.String()
	for _, s := range []string{"The arms ran 2 engines:", "Engine 1, run by arm `classic`:", "Engine 2, run by arm `draft`:",
		"| Stale binary |", "| Allowed dirty or stale | benchmarking a work in progress |", "b11670"} {
		if !strings.Contains(md, s) {
			t.Errorf("record lacks %q", s)
		}
	}
	got, err := Parse(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	rec.Runs = nil
	if !reflect.DeepEqual(normalize(t, got), normalize(t, rec)) || got.EngineOf("draft").SHA256 != "cd34" {
		t.Errorf("parsed record differs from the rendered one")
	}
}
