package recorder

import (
	"bytes"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// A secondary metric that one arm never has (drafted for the classic arm)
// is a row of dashes that says so, never invented zeros; a metric without
// a unit has no empty unit in its heading. A v2 record renders as v2 did.
func TestMetricAbsentForAnArm(t *testing.T) {
	src := fixedScenario + `metrics:
  extra:
    - {name: drafted, unit: tok, json: timings.draft_n}
    - {name: acceptance, better: higher, json: timings.acc}
`
	s, _, err := scenarios.Parse("t.yaml", ".", []byte(src), scenarios.Options{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	render := func(version string) string {
		rec := fixedRecord(schema.Inconclusive)
		rec.Schema = version
		for i := range rec.Runs {
			if rec.Runs[i].Arm == "draft" {
				rec.Runs[i].Metrics["drafted"] = 40
			} else {
				rec.Runs[i].Metrics["acceptance"] = 0.5
			}
		}
		rec.Analysis, rec.Verdict = analyze(s.Policy, rec.Runs, rec.Method, rec.Schema)
		var buf bytes.Buffer
		if err := Markdown(&buf, rec); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	md := render(schema.Schema)
	for _, want := range []string{
		"### `drafted` (tok, secondary, higher is better)",
		"| `classic` | 0 | — | — | — | — | — | — | — | — | — | — | — | — | no value for this arm (source absent) |",
		"| `draft` | 2 | 40.00 [40.00, 40.00] (50.00%) | 0 |",
		"| — (no baseline value) | — | no value for the baseline (source absent) |",
		"### `acceptance` (secondary, higher is better)",
		"| `draft` | 0 | — | — | — | — | — | — | — | — | — | — | — | — | no value for this arm (source absent) |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the record lacks %q", want)
		}
	}
	if strings.Contains(md, "(, secondary") || strings.Contains(md, "neither arm has a finished run") {
		t.Errorf("v3 record still has the empty unit or the invented comparison")
	}
	if !strings.Contains(render(schema.SchemaV2), "### `acceptance` (, secondary, higher is better)") {
		t.Error("a v2 record no longer renders as v2 did")
	}
}

// A command engine's Method says what ran: a command run once per measured
// run, no ready path, no streamed request, contention over its process
// group; a v2 record renders as v2 did.
func TestMethodOfACommandEngine(t *testing.T) {
	rec := fixedRecord(schema.Inconclusive)
	rec.Method.EngineKind = "command"
	var buf bytes.Buffer
	if err := Markdown(&buf, rec); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, want := range []string{"Request: none; a command-line engine takes its prompt", "A command-line engine: every run starts the command afresh in its own process group", "warmup run(s) of the command", "during the measured run, the command's process group being the engine's", "is the command's own figure"} {
		if !strings.Contains(md, want) {
			t.Errorf("the Method lacks %q", want)
		}
	}
	for _, not := range []string{"ready path, sends the warmups", "first streamed token event"} {
		if strings.Contains(md, not) {
			t.Errorf("the Method of a command engine says %q", not)
		}
	}
	rec.Schema = schema.SchemaV2
	buf.Reset()
	if err := Markdown(&buf, rec); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "waits for its ready path") {
		t.Error("a v2 record's Method changed")
	}
}
