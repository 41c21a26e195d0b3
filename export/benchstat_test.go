package export

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/decodebench/decodebench/schema"
	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchproc"
)

// The export is valid Go benchmark format: benchfmt (what benchstat reads)
// parses one result per finished run, with the arm as a sub-benchmark and
// every metric as a unit.
func TestExportBenchstat(t *testing.T) {
	rec := &schema.Record{Feature: "spec-draft", Hardware: "xeon", Date: "2026-11-29", Verdict: schema.Valid}
	rec.Scenario.Primary, rec.Scenario.Baseline = "decode_tok_s", "classic"
	rec.Scenario.Arms = []schema.ArmInfo{{Name: "draft"}, {Name: "classic"}}
	for i, arm := range []string{"draft", "classic", "classic", "draft"} {
		rec.Runs = append(rec.Runs, schema.Run{Seq: i + 1, Arm: arm, Start: time.Unix(0, 0),
			Metrics: map[string]float64{"decode_tok_s": 100 + float64(i), "ttft_ms": 12.5, "e2e_tok_s": 90, "wall_s": 1.2}})
	}
	rec.Runs = append(rec.Runs, schema.Run{Seq: 5, Arm: "draft", Error: "failed"})
	var buf bytes.Buffer
	if err := Benchstat(&buf, rec, "spec-draft-xeon-2026-11-29-3"); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(buf.Bytes(), []byte("# decodebench record spec-draft-xeon-2026-11-29-3: verdict VALID")) {
		t.Errorf("the export does not start by naming the record:\n%s", buf.String())
	}
	r := benchfmt.NewReader(&buf, "export")
	n := 0
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		n++
		name := string(res.Name)
		if n == 1 && name != "SpecDraft/arm=classic" {
			t.Errorf("first result %q: the baseline must come first, benchstat compares against the first", name)
		}
		if name != "SpecDraft/arm=classic" && name != "SpecDraft/arm=draft" {
			t.Errorf("name %q", name)
		}
		if v, ok := res.Value("decode-tok/s"); !ok || v < 100 {
			t.Errorf("%s: decode-tok/s %v %v", name, v, ok)
		}
		if len(res.Values) != 4 {
			t.Errorf("%s: %d values", name, len(res.Values))
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	if n != 4 {
		t.Errorf("%d results, want 4 (the failed run is left out)", n)
	}
}

// `benchstat a b` compares two exports of one machine without -ignore:
// benchstat puts files whose configuration differs in separate tables
// (its default -table is .config), so two records' exports must project
// to one table, their files to two columns. The scenario's own metrics
// are exported too, under their name and unit.
func TestExportsCompareInOneBenchstatTable(t *testing.T) {
	export := func(stem string, verdict schema.Verdict, sha string, f float64) []byte {
		rec := &schema.Record{Feature: "spec-draft", Verdict: verdict, Engine: schema.EngineInfo{SHA256: sha},
			Machine: schema.MachineInfo{OS: "linux", Arch: "amd64", CPUModel: "Xeon"}}
		rec.Scenario.Primary, rec.Scenario.Baseline = "decode_tok_s", "classic"
		rec.Scenario.Arms = []schema.ArmInfo{{Name: "classic"}, {Name: "draft"}}
		rec.Analysis.Results = []schema.MetricResult{{Metric: "decode_tok_s", Unit: "tok/s"}, {Metric: "gbps", Unit: "GB/s"}, {Metric: "acceptance"}}
		for i, arm := range []string{"classic", "draft", "draft", "classic"} {
			m := map[string]float64{"decode_tok_s": 100 * f, "gbps": 2 * f}
			if arm == "draft" {
				m["acceptance"] = 0.5
			}
			rec.Runs = append(rec.Runs, schema.Run{Seq: i + 1, Arm: arm, Metrics: m})
		}
		var buf bytes.Buffer
		if err := Benchstat(&buf, rec, stem); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	files := map[string][]byte{
		"a.txt": export("spec-draft-x-2026-01-01", schema.Valid, "aaaa", 1),
		"b.txt": export("spec-draft-x-2026-01-02", schema.Inconclusive, "bbbb", 1.1),
	}
	// benchstat's default projections: -table .config, -col .file.
	// benchstat's default projections, parsed in its order: -table
	// .config, -row .fullname, -col .file.
	var parser benchproc.ProjectionParser
	tableBy, err := parser.Parse(".config", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parser.Parse(".fullname", nil); err != nil {
		t.Fatal(err)
	}
	colBy, err := parser.Parse(".file", nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var paths []string
	for _, name := range []string{"a.txt", "b.txt"} {
		paths = append(paths, filepath.Join(dir, name))
		if err := os.WriteFile(paths[len(paths)-1], files[name], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tables, cols, units := map[benchproc.Key]bool{}, map[benchproc.Key]bool{}, map[string]bool{}
	r := benchfmt.Files{Paths: paths}
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok {
			t.Fatalf("%v", r.Result())
		}
		tables[tableBy.Project(res)] = true
		cols[colBy.Project(res)] = true
		for _, v := range res.Values {
			units[v.Unit] = true
		}
	}
	if len(tables) != 1 || len(cols) != 2 {
		t.Errorf("benchstat a b would give %d table(s) of %d column(s), want 1 of 2", len(tables), len(cols))
	}
	for _, u := range []string{"decode-tok/s", "gbps-GB/s", "acceptance"} {
		if !units[u] {
			t.Errorf("unit %q not exported (have %v)", u, units)
		}
	}
}

// A record whose arms ran their own engines names each arm's binary hash
// in the export's first comment.
func TestExportNamesEachArmsEngine(t *testing.T) {
	rec := &schema.Record{Feature: "builds", Verdict: schema.Valid, Schema: schema.SchemaV4, Engine: schema.EngineInfo{SHA256: "b1"}}
	rec.Scenario.Primary, rec.Scenario.Baseline = "decode_tok_s", "base"
	rec.Scenario.Arms = []schema.ArmInfo{{Name: "base"}, {Name: "head"}}
	rec.Engines = []schema.ArmsEngine{{Arms: []string{"base"}, EngineInfo: schema.EngineInfo{SHA256: "b1"}}, {Arms: []string{"head"}, EngineInfo: schema.EngineInfo{SHA256: "h2"}}}
	for i, arm := range []string{"base", "head"} {
		rec.Runs = append(rec.Runs, schema.Run{Seq: i + 1, Arm: arm, Start: time.Unix(0, 0), Metrics: map[string]float64{"decode_tok_s": 100}})
	}
	var buf bytes.Buffer
	if err := Benchstat(&buf, rec, "builds-x-2026-01-01"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"engine sha256 b1 (arm base), h2 (arm head)\n"} {
		if !bytes.Contains(buf.Bytes(), []byte(want)) {
			t.Errorf("export lacks %q:\n%s", want, buf.String())
		}
	}
}

// Text from the record (its name, the machine's CPU model, an engine's
// hash) stays on its line in the export, and no control sequence or
// bidirectional override reaches whoever prints it.
func TestExportBenchstatHostileText(t *testing.T) {
	rec := &schema.Record{Feature: "spec-draft", Hardware: "xeon", Date: "2026-11-29", Verdict: schema.Valid}
	rec.Scenario.Primary, rec.Scenario.Baseline = "decode_tok_s", "classic"
	rec.Scenario.Arms = []schema.ArmInfo{{Name: "classic"}}
	rec.Machine.CPUModel = "Xeon\x1b]0;pwned\x07\u202e\nBenchmarkForged 1 1 ns/op"
	rec.Engine.SHA256 = "abc\r\nBenchmarkForged 1 2 ns/op"
	rec.Runs = []schema.Run{{Seq: 1, Arm: "classic", Start: time.Unix(0, 0), Metrics: map[string]float64{"decode_tok_s": 100}}}
	var buf bytes.Buffer
	if err := Benchstat(&buf, rec, "x\u202e\x1b[2Jy"); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, bad := range []string{"\x1b", "\x07", "\u202e", "\r", "\nBenchmarkForged"} {
		if bytes.Contains(buf.Bytes(), []byte(bad)) {
			t.Errorf("the export holds %q:\n%s", bad, out)
		}
	}
}
