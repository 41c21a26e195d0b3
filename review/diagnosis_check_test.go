package review

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// A record with a divergence diagnosis and energy per run passes check,
// which re-derives the class from method.diagnosis and the energy metrics
// from the runs; an edited log-probability is caught. The record is the
// committed chaotic-model record with the diagnosis the real llama-server
// gave on an H200 host for the same divergence (token 365, 357 vs 505),
// and energy as the GPU sampler records it.
func TestCheckDiagnosisAndEnergy(t *testing.T) {
	for _, version := range []string{schema.Schema, schema.SchemaV2} {
		t.Run(version, func(t *testing.T) { checkDiagnosisAndEnergy(t, version) })
	}
}

func checkDiagnosisAndEnergy(t *testing.T, version string) {
	src := "../docs/benchmark_results/identity-chaotic-epyc-2026-11-29.md"
	rec, err := recorder.Load(src)
	if err != nil {
		t.Fatal(err)
	}
	rec.Schema = version
	srcData := filepath.Join(filepath.Dir(src), filepath.FromSlash(rec.DataDir))
	scen, err := os.ReadFile(filepath.Join(srcData, recorder.ScenarioFile))
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := scenarios.Parse(recorder.ScenarioFile, srcData, scen, scenarios.Options{Offline: true, PromptText: rec.Scenario.Request.Prompt, Set: rec.Scenario.Overrides})
	if err != nil {
		t.Fatal(err)
	}
	base := schema.Piece{ID: 357, Bytes: 3, Text: "\ufffd d", Merged: true, Candidates: []schema.Candidate{
		{ID: 357, Text: " d", Bytes: 2, Logprob: -4.011007308959961}, {ID: 505, Text: "int", Bytes: 3, Logprob: -4.011085510253906},
		{ID: 669, Text: "dy", Bytes: 2, Logprob: -4.1856560707092285}, {ID: 132, Text: "\ufffd", Bytes: 1, Logprob: -4.243619441986084},
		{ID: 421, Text: "ed", Bytes: 2, Logprob: -4.298478126525879}}}
	arm := schema.Piece{ID: 505, Bytes: 4, Text: "\ufffdint"}
	rec.Method.Diagnosis = []schema.DiagnosisProbe{{Arm: "draft", TopK: 5, PieceIndex: 319, ByteOffset: 744,
		Baseline: schema.ProbeSide{Arm: "classic", Run: 1, Reproduced: true, Piece: &base},
		Compared: schema.ProbeSide{Arm: "draft", Run: 2, Reproduced: true, Piece: &arm}}}
	for i := range rec.Runs {
		r := &rec.Runs[i]
		r.Energy = &schema.Energy{Source: schema.EnergyNvidiaSMI, Coverage: []string{"gpu"}, Joules: 200 + float64(i), Samples: 14 + i, IntervalS: 0.2, MinSamples: 5, WindowS: r.Footprint.WindowS}
		r.Metrics[schema.EnergyJ] = r.Energy.Joules
		r.Metrics[schema.EnergyJPerTok] = r.Energy.Joules / float64(r.Tokens)
	}
	rec.Analysis, rec.Verdict, _ = analysis.Record(s.Policy, rec.Runs, rec.Method, rec.Schema)
	d := rec.Analysis.Identity.Arms[0].Diagnosis
	if d == nil || d.Class != schema.NearTie || d.Rank != 2 {
		t.Fatalf("diagnosis %+v", d)
	}
	dir := t.TempDir()
	path := writeCopy(t, dir, srcData, rec)
	if probs := Check(path); len(probs) > 0 {
		t.Fatalf("check: %v", probs)
	}
	md, _ := os.ReadFile(path)
	for _, want := range []string{"| near-tie |", "0.00007820 (rank 2)", "Energy (`energy_j`", "14–21 samples per window (at least 5)", "its engine returned none there"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("record lacks %q", want)
		}
	}
	// A log-probability edited in the data block: the class no longer
	// follows, or the Markdown no longer matches.
	edited := bytes.Replace(md, []byte(`"logprob": -4.011085510253906`), []byte(`"logprob": -4.5`), 1)
	if bytes.Equal(edited, md) {
		t.Fatal("no log-probability to edit in the data block")
	}
	if err := os.WriteFile(path, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	if probs := Check(path); len(probs) == 0 {
		t.Error("check passed a record whose diagnosis was edited")
	}
}

// writeCopy writes rec into dir with a copy of srcData's files, runs.jsonl
// rewritten, and returns the record's path.
func writeCopy(t *testing.T, dir, srcData string, rec *schema.Record) string {
	t.Helper()
	dataDir := filepath.Join(dir, filepath.FromSlash(rec.DataDir))
	var runs bytes.Buffer
	for _, r := range rec.Runs {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		runs.Write(append(b, '\n'))
	}
	for i, f := range rec.Files {
		dst := filepath.Join(dataDir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		b := runs.Bytes()
		if f.Path != recorder.RunsFile {
			var err error
			if b, err = os.ReadFile(filepath.Join(srcData, filepath.FromSlash(f.Path))); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Fatal(err)
		}
		rec.Files[i].SHA256, _ = recorder.HashFile(dst)
	}
	copyState(t, srcData, dataDir, rec.Scenario.Overrides)
	path := filepath.Join(dir, filepath.Base(rec.DataDir)+".md")
	if err := recorder.WriteFile(path, rec); err != nil {
		t.Fatal(err)
	}
	return path
}
