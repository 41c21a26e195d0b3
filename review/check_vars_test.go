package review

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
	"golang.org/x/sys/unix"
	"gopkg.in/yaml.v3"
)

// A committed record whose variables, arm environment, overrides or
// scenario path were edited in the data block (re-rendered and re-hashed)
// fails check; the copy as written passes, with its campaign state or
// without it (as gather leaves it).
func TestCheckMachineTextOfACommittedRecord(t *testing.T) {
	const name = "identity-chaotic-xeon-2026-12-03"
	rec, err := recorder.Load(filepath.Join("..", "docs", "benchmark_results", name+".md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Scenario.Vars) == 0 || !rec.Scenario.Vars[0].FromEnv || len(rec.Scenario.Arms) < 2 {
		t.Fatal("the record's first variable is not the environment's: the test proves nothing")
	}
	// The state as the campaign wrote it (writeCopy gives the copy's the
	// record's overrides).
	asWritten := func(t *testing.T, path string) {
		b, err := os.ReadFile(filepath.Join("..", "docs", "benchmark_results", "data", name, campaignStateFile))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	checkEdits(t, name, []recordEdit{
		{what: "as written", edit: func(*schema.Record) {}},
		{what: "a variable's value", edit: func(r *schema.Record) { r.Scenario.Vars[0].Value = "/opt/llama-b9999/llama-server" },
			want: `the environment gave it, and the data block states its value "/opt/llama-b9999/llama-server"`},
		{what: "a variable not from the environment", edit: func(r *schema.Record) { r.Scenario.Vars[0].FromEnv = false },
			want: `campaign.json says the environment gave it, the data block states the scenario's value`},
		{what: "a variable added", edit: func(r *schema.Record) {
			r.Scenario.Vars = append(r.Scenario.Vars, schema.VarInfo{Name: "BUILD", Value: "b9999"})
		}, want: `the data block lists the variables`},
		{what: "an arm's environment", edit: func(r *schema.Record) {
			r.Scenario.Arms[1].Env = map[string]string{"LD_LIBRARY_PATH": "/opt/fast"}
		}, want: `the data block states the environment names [LD_LIBRARY_PATH], the stored scenario gives []`},
		{what: "the scenario's path", edit: func(r *schema.Record) { r.Scenario.Path = "embedded:other.yaml" },
			want: `the data block states the scenario's path "embedded:other.yaml"`},
		{what: "the campaign state deleted (a record gathered before gather copied it)", edit: func(*schema.Record) {}, state: func(_ *testing.T, path string) { os.Remove(path) }},
		{what: "an override added", edit: func(r *schema.Record) {
			r.Scenario.Overrides = append(r.Scenario.Overrides, "arms[1].env.LD_LIBRARY_PATH=/opt/fast")
		}, want: `the data block states the overrides ["arms[1].env.LD_LIBRARY_PATH=/opt/fast"], campaign.json []`, state: asWritten},
	})
}

// An arm's environment built of a variable the environment gave is held
// to the value the stored scenario resolves to under the campaign state's
// variables; a secret the state withheld stands for any text.
func TestCheckArmEnvironmentUnderTheStateVars(t *testing.T) {
	const yaml = `feature: t
vars: {LIBS: /usr/lib, HF_TOKEN: none}
engine:
  kind: command
  command: ["/opt/a/engine"]
  env: {LD_LIBRARY_PATH: "${LIBS}/fast", TOKEN: "${HF_TOKEN}"}
  output: {metrics: {decode_tok_s: 'tok/s ([0-9.]+)'}}
arms:
  - name: a
  - name: b
    env: {MODE: "2"}
baseline: a
schedule: {rounds: 6}
allow_unverified: "test"
unmeasured: [Prefill.]
`
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, recorder.ScenarioFile), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	state := `{"scenario_path": "/w/s.yaml", "work_dir": "/w", "vars": [{"name": "LIBS", "value": "/opt/b9999"}, {"name": "HF_TOKEN", "withheld": true}]}`
	if err := os.WriteFile(filepath.Join(dir, campaignStateFile), []byte(state), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := storedScenario(dir, []byte(yaml), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := safefs.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	record := func(libs, mode string) *schema.Record {
		return &schema.Record{Scenario: schema.ScenarioInfo{Path: "s.yaml",
			Vars: []schema.VarInfo{{Name: "HF_TOKEN", Value: schema.VarFromEnvironment, FromEnv: true}, {Name: "LIBS", Value: schema.VarFromEnvironment, FromEnv: true}},
			Arms: []schema.ArmInfo{
				{Name: "a", Env: map[string]string{"LD_LIBRARY_PATH": libs, "TOKEN": "[redacted]"}},
				{Name: "b", Env: map[string]string{"LD_LIBRARY_PATH": libs, "TOKEN": "[redacted]", "MODE": mode}},
			}}}
	}
	if p := checkMachineText(dir, []byte(yaml), s, record("/opt/b9999/fast", "2"), stateIn(t, d)); len(p) != 0 {
		t.Errorf("as run: %v", p)
	}
	p := fmt.Sprint(checkMachineText(dir, []byte(yaml), s, record("/opt/fast", "3"), stateIn(t, d)))
	for _, want := range []string{`arm a: the data block states LD_LIBRARY_PATH="/opt/fast", the stored scenario resolves it to "/opt/b9999/fast"`, `arm b: the data block states MODE="3"`} {
		if !strings.Contains(p, want) {
			t.Errorf("edited: %s\nwant a problem saying %q", p, want)
		}
	}
	// Without the state (gather leaves it behind) a value built of a
	// variable the environment gave stands for any text there; one the
	// stored scenario decides alone is still held to it.
	if err := os.Remove(filepath.Join(dir, campaignStateFile)); err != nil {
		t.Fatal(err)
	}
	if p := checkMachineText(dir, []byte(yaml), s, record("/opt/b9999/fast", "2"), stateIn(t, d)); len(p) != 0 {
		t.Errorf("as run, without the state: %v", p)
	}
	p = fmt.Sprint(checkMachineText(dir, []byte(yaml), s, record("/opt/fast", "3"), stateIn(t, d)))
	if !strings.Contains(p, `arm b: the data block states MODE="3", the stored scenario resolves it to "2"`) || strings.Contains(p, "LD_LIBRARY_PATH") {
		t.Errorf("edited, without the state: %s", p)
	}
	// A scenario's own variable's value masked in the data block (not a
	// secret's) is another value.
	r := record("/opt/b9999/fast", "2")
	r.Scenario.Vars[1] = schema.VarInfo{Name: "LIBS", Value: "[redacted]"}
	if p := fmt.Sprint(checkMachineText(dir, []byte(yaml), s, r, stateIn(t, d))); !strings.Contains(p, `variable LIBS: the data block states the value "[redacted]"`) {
		t.Errorf("a variable masked: %s", p)
	}
}

// An environment value under the state's variables is the recorder's
// text: a mask may stand only for a secret the recorder learned (no '@'
// or ':' in it), never for a URL's host; without the state, a mask the
// environment's variable left stands for any text.
func TestSameEnvValue(t *testing.T) {
	for _, c := range []struct {
		got, want, raw string
		underState     bool
		same           bool
	}{
		{"https://user:[redacted]@example.com/x", "https://user:[redacted]@example.com/x", "https://user:s3cr3t@example.com/x", true, true},
		{"https://user:[redacted]@evil.com/@example.com/x", "https://user:[redacted]@example.com/x", "https://user:s3cr3t@example.com/x", true, false},
		{"https://user:x@evil.com/@example.com/x", "https://user:[redacted]@example.com/x", "https://user:s3cr3t@example.com/x", true, false},
		{"https://[redacted]/x", "https://user:s3cr3t@example.com/x", "https://user:s3cr3t@example.com/x", true, false},
		{"prefix-[redacted]-suffix", "prefix-abc123-suffix", "prefix-abc123-suffix", true, true},
		{"/opt/fast/lib1", "[redacted]/lib1", "[redacted]/lib1", false, true},
		{"/opt/fast/lib2", "[redacted]/lib1", "[redacted]/lib1", false, false},
		{"/opt/fast/lib1", "/opt/base/lib1", "/opt/base/lib1", true, false},
		// A variable the state masked (token=…), whose credential form the
		// recorder's mask of the whole value swallowed the rest of.
		{"/x/token=[redacted]", "/x/[redacted]:/y", "/x/[redacted]:/y", true, true},
		{"/evil/token=[redacted]", "/x/[redacted]:/y", "/x/[redacted]:/y", true, false},
	} {
		if got := sameEnvValue(c.got, c.want, c.raw, c.underState); got != c.same {
			t.Errorf("sameEnvValue(%q, %q, %q, %v) = %v", c.got, c.want, c.raw, c.underState, got)
		}
	}
	// An override's value is read as YAML: quoted, the environment's value
	// stays whole.
	for _, v := range []string{"a #b", `"q"`, "null", "it's", "[redacted]"} {
		var got string
		if err := yaml.Unmarshal([]byte(yamlQuoted(v)), &got); err != nil || got != v {
			t.Errorf("yamlQuoted(%q) reads back %q (%v)", v, got, err)
		}
	}
}

// A record started since gather copies the campaign state has one: its
// state deleted (which would switch off every check against it) is a
// problem; the same record with its state passes.
func TestCheckWantsTheStateOfARecentRecord(t *testing.T) {
	old := stateRequired
	defer func() { stateRequired = old }()
	rec, err := recorder.Load(filepath.Join("..", "docs", "benchmark_results", "identity-chaotic-xeon-2026-12-03.md"))
	if err != nil {
		t.Fatal(err)
	}
	stateRequired = rec.Method.Started.Add(-time.Hour)
	checkEdits(t, "identity-chaotic-xeon-2026-12-03", []recordEdit{
		{what: "as written", edit: func(*schema.Record) {}},
		{what: "the campaign state deleted", edit: func(*schema.Record) {}, state: func(_ *testing.T, path string) { os.Remove(path) },
			want: "the data folder has no campaign.json, which every campaign writes as it starts and gather copies"},
	})
}

// A campaign state that is there but cannot be read (a folder, a FIFO, a
// genuine state padded past the bound) is a problem for a record of any
// date: taken for an absent one, it switched off every check against it
// (a state claiming another engine passed once padded).
func TestCheckRefusesAnUnreadableState(t *testing.T) {
	want := "the data folder's campaign.json is not a campaign state"
	checkEdits(t, "identity-chaotic-xeon-2026-12-03", []recordEdit{
		{what: "a folder", edit: func(*schema.Record) {}, want: want, state: func(t *testing.T, path string) {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(path, "x"), 0o755); err != nil {
				t.Fatal(err)
			}
		}},
		{what: "a FIFO", edit: func(*schema.Record) {}, want: want, state: func(t *testing.T, path string) {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			if err := unix.Mkfifo(path, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{what: "padded past the bound", edit: func(*schema.Record) {}, want: want, state: func(t *testing.T, path string) {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, append(b, strings.Repeat(" ", maxCampaignState)...), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
	})
}

// A crafted value of more masks than a recorder writes matches nothing
// (its pattern would take seconds to compile, or not compile), though its
// masks could stand for any text without '@' or ':'.
func TestSameEnvValueOfACraftedSize(t *testing.T) {
	if !sameEnvValue(strings.Repeat("[redacted]", maxMasks), "abc", "abc", true) {
		t.Fatal("a value of maxMasks masks does not match: the test proves nothing")
	}
	if sameEnvValue(strings.Repeat("[redacted]", maxMasks+1), "abc", "abc", true) {
		t.Error("a value of more masks matched")
	}
}

// stateIn is the campaign state a data folder holds now, as check reads it.
func stateIn(t *testing.T, d *safefs.Dir) *runState {
	t.Helper()
	st, probs := readRunState(d, &schema.Record{})
	if len(probs) != 0 {
		t.Fatal(probs)
	}
	return st
}
