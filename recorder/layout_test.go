package recorder

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// answerFirstRecord is fixedRecord written as a campaign writes one now
// (SchemaV5), its engine with libraries, every run contended, and, when
// interrupted, stopped before its plan's end.
func answerFirstRecord(t *testing.T, interrupted bool) *schema.Record {
	return answerFirstRecordOf(t, interrupted, "")
}

// answerFirstRecordOf is answerFirstRecord under a scenario that allows
// an unverified verdict for the reason unverified, if not empty.
func answerFirstRecordOf(t *testing.T, interrupted bool, unverified string) *schema.Record {
	t.Helper()
	rec := fixedRecord(schema.Valid)
	rec.Schema = schema.SchemaV5
	for i := range 20 {
		rec.Engine.Libraries = append(rec.Engine.Libraries, schema.FileSum{Path: "/usr/lib/libggml-" + string(rune('a'+i)) + ".so", SHA256: strings.Repeat(string(rune('a'+i%6)), 64)})
	}
	for i := range rec.Runs {
		rec.Runs[i].Contention = &schema.ContentionSample{Busy: 0.9, Measured: 0.4, Others: 0.5, Culprit: &schema.HostProcess{PID: 42, Name: "rustc", Cores: 0.9}}
	}
	rec.Method.Interrupted = interrupted
	s, _, err := scenarios.Parse("t.yaml", ".", []byte(fixedScenario), scenarios.Options{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	s.Policy.AllowUnverified = unverified
	rec.Analysis, rec.Verdict = analyze(s.Policy, rec.Runs, rec.Method, rec.Schema)
	return rec
}

// An UNVERIFIED record's verdict line names the gates that failed beside
// it, which its headline alone does not.
func TestAnswerFirstUnverifiedNamesGates(t *testing.T) {
	rec := answerFirstRecordOf(t, false, "the counter cannot see the setting")
	if rec.Verdict != schema.Unverified {
		t.Fatalf("verdict %s", rec.Verdict)
	}
	var buf bytes.Buffer
	if err := Markdown(&buf, rec); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	line := md[:strings.Index(md, "\n\n- ")]
	if !strings.Contains(line, "**Verdict: UNVERIFIED**") || !strings.Contains(line, "**Gates that failed: sample size, contention (every run contended).**") {
		t.Errorf("the verdict line does not name the gates that failed:\n%s", line)
	}
}

// A record written now leads with its answer (issue 34): the verdict and
// every gate that failed on its first screen, the results right after,
// the identity tables (engine, counters per run) after them with the long
// ones folded, and a raw table without the unreadable start of the text.
// One written before keeps the order it was written in.
func TestAnswerFirstLayout(t *testing.T) {
	for _, tc := range []struct {
		name        string
		interrupted bool
		verdict     schema.Verdict
		golden      string
	}{
		{"inconclusive", false, schema.Inconclusive, "answerfirst.golden.md"},
		{"incomplete", true, schema.Incomplete, "answerfirst-incomplete.golden.md"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := answerFirstRecord(t, tc.interrupted)
			if rec.Verdict != tc.verdict {
				t.Fatalf("verdict %s, want %s", rec.Verdict, tc.verdict)
			}
			var buf bytes.Buffer
			if err := Markdown(&buf, rec); err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join("testdata", tc.golden), buf.Bytes())
			md := buf.String()
			last := -1
			for _, h := range []string{"## Results", "## Summary", "## Output identity", "## Counter evidence", "## Method", "## Machine", "## Engine", "## Raw runs", "## Not measured", "## Data"} {
				i := strings.Index(md, "\n"+h+"\n")
				if i < 0 || i < last {
					t.Fatalf("section %q missing or out of order:\n%s", h, md)
				}
				last = i
			}
			// The first screen: up to the results' first table.
			first := md[:strings.Index(md, "## Results")]
			if !strings.Contains(first, "**Gates that failed: sample size, contention (every run contended).**") || !strings.Contains(first, "in 4 of 4 runs (100%)") {
				t.Errorf("the first screen does not say that every run was contended:\n%s", first)
			}
			if tc.interrupted && !strings.Contains(first, "- Also failed: Contended host: in 4 of 4 runs (100%)") {
				t.Errorf("an INCOMPLETE record's first screen does not name the gate its interruption decided before:\n%s", first)
			}
			if !strings.Contains(md, "<details><summary>20 shared libraries, each with its sha256</summary>") || strings.Contains(md, "| Library | `/usr/lib") {
				t.Error("the engine's libraries are not folded")
			}
			if !strings.Contains(md, "Every one of the 4 readings checked against an expectation held it (✅).\n\n<details><summary>Each run's readings</summary>") {
				t.Error("the counters' per-run table is not folded under its tally")
			}
			raw := md[strings.Index(md, "## Raw runs"):]
			head := raw[strings.Index(raw, "\n| ")+1:]
			head = head[:strings.Index(head, "\n")]
			if n := strings.Count(head, "|") - 1; n > 16 || strings.Contains(head, "output starts") || strings.Contains(head, "CPU busy") {
				t.Errorf("raw table of %d columns: %s", n, head)
			}
			got, err := Parse(strings.NewReader(md))
			if err != nil || got.Schema != schema.SchemaV5 || len(got.Analysis.AlsoFailed) != len(rec.Analysis.AlsoFailed) {
				t.Fatalf("parse: %v", err)
			}
		})
	}
	// The same record as v3 keeps v3's order: the engine before the results.
	rec := answerFirstRecord(t, false)
	rec.Schema = schema.Schema
	rec.Analysis.AlsoFailed = nil
	var buf bytes.Buffer
	if err := Markdown(&buf, rec); err != nil {
		t.Fatal(err)
	}
	if md := buf.String(); strings.Index(md, "## Engine") > strings.Index(md, "## Results") || strings.Contains(md, "<details><summary>20 shared") || strings.Contains(md, "Gates that failed") {
		t.Error("a v3 record is not rendered as it was written")
	}
}
