package review

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// A committed record whose engine identity was edited (an arm stated to
// have run another build than the one its campaign started with) fails
// check: the campaign state kept each arm's engine hash.
func TestCheckEngineAgainstCampaignState(t *testing.T) {
	const name = "spec-draft-epyc-2026-12-05"
	src := filepath.Join("..", "docs", "benchmark_results", name+".md")
	rec, err := recorder.Load(src)
	if err != nil {
		t.Fatal(err)
	}
	srcData := filepath.Join(filepath.Dir(src), "data", name)
	rec.Engine.SHA256 = strings.Repeat("f", 64)
	dir := t.TempDir()
	p := writeCopy(t, dir, srcData, rec)
	st, err := os.ReadFile(filepath.Join(srcData, campaignStateFile))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, filepath.FromSlash(rec.DataDir), campaignStateFile), string(st))
	cache := &CheckCache{Dir: t.TempDir(), Identity: "test"}
	if r := CheckAll([]string{p}, cache); r[0].Cached || len(r[0].Problems) == 0 {
		t.Fatalf("the forgery: %v", r[0])
	}
	// The campaign state is read, so it keys the cache: the state as
	// forged to match checks afresh, and passes.
	fixed := strings.ReplaceAll(string(st), "d47251994b4edb8af73ba17957a44558598f9d5e9677ddd54b421f1fc01d24db", rec.Engine.SHA256)
	writeFile(t, filepath.Join(dir, filepath.FromSlash(rec.DataDir), campaignStateFile), fixed)
	if r := CheckAll([]string{p}, cache); r[0].Cached || len(r[0].Problems) != 0 {
		t.Errorf("the state changed: %+v", r[0])
	}
	writeFile(t, filepath.Join(dir, filepath.FromSlash(rec.DataDir), campaignStateFile), string(st))
	probs := fmt.Sprint(Check(p))
	if want := "ran an engine of sha256 d47251994b4e by campaign.json, the record states ffffffffffff"; !strings.Contains(probs, want) {
		t.Errorf("check found %s\nwant a problem saying %q", probs, want)
	}
}

// A record of a scenario whose arms run engines of their own lists them,
// grouped as the scenario groups them; not where an engine's command
// names a variable of the machine, which offline stays unresolved.
func TestCheckEnginesOfTheScenario(t *testing.T) {
	const yaml = `feature: builds
engine:
  kind: command
  command: ["/opt/a/engine"]
  output: {metrics: {decode_tok_s: 'tok/s ([0-9.]+)'}}
arms:
  - name: a
  - name: b
    engine: {command: ["%s"]}
baseline: a
schedule: {rounds: 6}
allow_unverified: "test"
unmeasured: [Prefill.]
`
	d, err := safefs.OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, c := range []struct {
		command string
		engines []schema.ArmsEngine
		want    string
	}{
		{"/opt/b/engine", nil, "the stored scenario runs 2 engines (arms [[a] [b]]), the record lists 0"},
		{"/opt/b/engine", []schema.ArmsEngine{{Arms: []string{"a"}}, {Arms: []string{"b"}}}, ""},
		{"/opt/b/engine", []schema.ArmsEngine{{Arms: []string{"a", "b"}}}, "the record lists 1"},
		{"${B_DIR}/engine", nil, ""},
	} {
		s, _, err := scenarios.Parse("s.yaml", ".", fmt.Appendf(nil, yaml, c.command), scenarios.Options{Offline: true})
		if err != nil {
			t.Fatal(err)
		}
		rec := &schema.Record{Scenario: schema.ScenarioInfo{Arms: []schema.ArmInfo{{Name: "a"}, {Name: "b"}}}, Engines: c.engines}
		probs := fmt.Sprint(checkArmEngines(s, rec, d, stateIn(t, d)))
		if c.want == "" && probs != "[]" || !strings.Contains(probs, c.want) {
			t.Errorf("%s, %d engines listed: %s, want %q", c.command, len(c.engines), probs, c.want)
		}
	}
}

// A record whose model files, version or engine path were edited
// (another engine stated than the one each arm ran) fails check where the
// campaign state kept each arm's models and identity; the same state
// passes the record as written.
func TestCheckModelsAgainstCampaignState(t *testing.T) {
	const name = "spec-draft-epyc-2026-12-05"
	src := filepath.Join("..", "docs", "benchmark_results", name+".md")
	rec, err := recorder.Load(src)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Engine.Models) == 0 {
		t.Fatal("the record names no model: the test proves nothing")
	}
	srcData := filepath.Join(filepath.Dir(src), "data", name)
	b, err := os.ReadFile(filepath.Join(srcData, campaignStateFile))
	if err != nil {
		t.Fatal(err)
	}
	var st map[string]any
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	models, ids := map[string]string{}, map[string]schema.EngineIdentity{}
	for _, a := range rec.Scenario.Arms {
		models[a.Name] = rec.EngineOf(a.Name).ModelKey()
		ids[a.Name] = rec.EngineOf(a.Name).Identity()
	}
	// A resume identified the engines again (their version text changed,
	// their files did not): the record it wrote states those, one it did
	// not get to rewrite the start's.
	resumed := map[string]schema.EngineIdentity{}
	for a, id := range ids {
		id.Version = "version: resumed"
		resumed[a] = id
	}
	st["arm_models"], st["arm_identity"], st["resumed_identity"] = models, ids, []any{resumed}
	withModels, _ := json.Marshal(st)
	for _, c := range []struct {
		what, want string
		edit       func(*schema.Record)
	}{
		{"as written", "", func(*schema.Record) {}},
		{"a model's sha256", "ran the models ", func(r *schema.Record) {
			r.Engine.Models = slices.Clone(rec.Engine.Models)
			r.Engine.Models[0].SHA256 = strings.Repeat("f", 64)
		}},
		{"the version", `ran the engine {"command"`, func(r *schema.Record) { r.Engine.Version = "version: 9999 (build b9999)" }},
		{"the version a resume identified", "", func(r *schema.Record) { r.Engine.Version = "version: resumed" }},
		{"the path", `"path":"/opt/fast/llama-server"`, func(r *schema.Record) { r.Engine.Path = "/opt/fast/llama-server" }},
	} {
		r := *rec
		c.edit(&r)
		dir := t.TempDir()
		p := writeCopy(t, dir, srcData, &r)
		writeFile(t, filepath.Join(dir, filepath.FromSlash(r.DataDir), campaignStateFile), string(withModels))
		probs := fmt.Sprint(Check(p))
		if c.want == "" && probs != "[]" || c.want != "" && !strings.Contains(probs, c.want) {
			t.Errorf("%s: check found %s, want %q", c.what, probs, c.want)
		}
	}
}

// Where the arms run engines of their own, the record's engine is the
// baseline's as the engines list it, whole: a model's sha256 edited in the
// record's engine alone (which history reads) is a problem.
func TestCheckRecordEngineIsTheBaselinesWhole(t *testing.T) {
	e1 := schema.EngineInfo{Path: "/opt/a/engine", SHA256: strings.Repeat("a", 64),
		Models: []schema.ModelFile{{Arg: "-m", Path: "/m/target.gguf", Bytes: 10, SHA256: strings.Repeat("1", 64)}}}
	e2 := e1
	e2.Path, e2.SHA256 = "/opt/b/engine", strings.Repeat("b", 64)
	rec := &schema.Record{Schema: schema.SchemaV5, Scenario: schema.ScenarioInfo{Baseline: "a", Arms: []schema.ArmInfo{{Name: "a"}, {Name: "b"}}},
		Engines: []schema.ArmsEngine{{Arms: []string{"a"}, EngineInfo: e1}, {Arms: []string{"b"}, EngineInfo: e2}}}
	rec.Engine = e1
	if p := checkEngines(rec); len(p) != 0 {
		t.Fatalf("as written: %v", p)
	}
	rec.Engine.Models = []schema.ModelFile{{Arg: "-m", Path: "/m/target.gguf", Bytes: 10, SHA256: strings.Repeat("f", 64)}}
	if p := fmt.Sprint(checkEngines(rec)); !strings.Contains(p, "the record's engine is not the baseline a's") {
		t.Errorf("a model edited in the record's engine: %s", p)
	}
}
