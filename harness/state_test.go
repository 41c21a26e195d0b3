package harness

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

func parseTest(t *testing.T, src string) *scenarios.Scenario {
	t.Helper()
	s, _, err := scenarios.Parse("t.yaml", ".", []byte(src), scenarios.Options{LookupEnv: func(string) (string, bool) { return "", false }})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// heldDir opens a folder as a campaign holds its data folder, closed
// when the test ends.
func heldDir(t *testing.T, dir string) *safefs.Dir {
	t.Helper()
	d, err := safefs.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// testCampaign parses src and builds its campaign.
func testCampaign(t *testing.T, src string) *campaign {
	t.Helper()
	c, err := newCampaign(parseTest(t, src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// craftedFolder makes out/data/<stem> as a campaign would have left it
// (its engine's hash in campaign.json is not the engine's).
func craftedFolder(t *testing.T, s *scenarios.Scenario, stem string) (out, dataDir string) {
	t.Helper()
	out = t.TempDir()
	dataDir = filepath.Join(out, "data", stem)
	if err := os.MkdirAll(filepath.Join(dataDir, "logs"), 0o755); err != nil {
		t.Fatal(err)
	}
	st := `{"scenario_path": "t.yaml", "scenario_hash": "` + s.Hash() + `", "engine_sha256": "never-this"}`
	for name, body := range map[string]string{stateFile: st, recorder.ScenarioFile: string(s.Source), recorder.RunsFile: ""} {
		if err := os.WriteFile(filepath.Join(dataDir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return out, dataDir
}

// A crafted data folder cannot make --resume write outside it: every link
// is refused, with the reason, before anything is written, and the record
// path comes from the data folder's own place and name, never from
// campaign.json.
func TestResumeTrustsNothingInTheDataFolder(t *testing.T) {
	s := parseTest(t, testScenario)
	stem := "t-xeon-2026-01-01"
	outside := t.TempDir()
	victim := filepath.Join(outside, "victim.txt")

	cases := []struct {
		name  string
		craft func(dataDir string)
		want  string
	}{
		{"log is a link to a file outside", func(d string) {
			os.Symlink(victim, filepath.Join(d, "logs", "run-001-a.log"))
		}, "logs/run-001-a.log is a symbolic link"},
		{"runs.jsonl is a link", func(d string) {
			os.Remove(filepath.Join(d, recorder.RunsFile))
			os.Symlink(victim, filepath.Join(d, recorder.RunsFile))
		}, "runs.jsonl is a symbolic link"},
		{"logs is a link to a folder outside", func(d string) {
			os.RemoveAll(filepath.Join(d, "logs"))
			os.Symlink(outside, filepath.Join(d, "logs"))
		}, "logs is a symbolic link"},
		{"campaign.json.tmp is a link", func(d string) {
			os.Symlink(victim, filepath.Join(d, stateFile+".tmp"))
		}, "campaign.json.tmp is a symbolic link"},
		{"plot is a link", func(d string) {
			os.Symlink(victim, filepath.Join(d, "decode_tok_s.png"))
		}, "decode_tok_s.png is a symbolic link"},
		{"a FIFO", func(d string) {
			mkfifo(t, filepath.Join(d, "logs", "fifo"))
		}, "logs/fifo is not a regular file"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.WriteFile(victim, []byte("precious\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			out, dataDir := craftedFolder(t, s, stem)
			tc.craft(dataDir)
			_, err := Resume(context.Background(), dataDir, s, Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Resume: %v, want an error saying %q", err, tc.want)
			}
			if b, _ := os.ReadFile(victim); string(b) != "precious\n" {
				t.Errorf("the file outside was changed: %q", b)
			}
			if ents, _ := os.ReadDir(outside); len(ents) != 1 {
				t.Errorf("something was written outside: %v", ents)
			}
			if _, err := os.Stat(filepath.Join(out, stem+".md")); err == nil {
				t.Error("a refused resume wrote a record")
			}
		})
	}
	if _, err := os.Stat("/tmp/elsewhere/x.md"); err == nil {
		t.Error("/tmp/elsewhere/x.md exists")
	}
}

// The record path, hardware slug and date are the data folder's, whatever
// campaign.json says; a folder whose name is not a record name of the
// scenario's feature, or that is not in <out>/data, is refused.
func TestResumeTarget(t *testing.T) {
	s := parseTest(t, testScenario)
	out, dataDir := craftedFolder(t, s, "t-xeon-2026-01-01-3")
	rec, stem, err := resumeTarget(dataDir, "t", "")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(out, "t-xeon-2026-01-01-3.md"); rec != want || stem.Hardware != "xeon" || stem.Date != "2026-01-01" || stem.N != 3 {
		t.Errorf("target %s %+v, want %s", rec, stem, want)
	}
	if _, _, err := resumeTarget(dataDir, "t", filepath.Join(out, "..")); err == nil || !strings.Contains(err.Error(), "--out") {
		t.Errorf("another --out: %v", err)
	}
	if _, _, err := resumeTarget(dataDir, "t", out); err != nil {
		t.Errorf("the same --out: %v", err)
	}
	// The record's place is a link: refused, not replaced.
	os.Symlink("/tmp/elsewhere/x.md", filepath.Join(out, "t-xeon-2026-01-01-3.md"))
	if _, _, err := resumeTarget(dataDir, "t", ""); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("record path a link: %v", err)
	}

	for _, stem := range []string{"other-xeon-2026-01-01", "t-xeon-2026-02-30", "t-xe_on-2026-01-01", "t-xeon-2026-01-01-1", "t-xeon-2026-01-01-x", "t-xeon-2026-01-01-02", "t-xeon"} {
		_, dataDir := craftedFolder(t, s, stem)
		if _, _, err := resumeTarget(dataDir, "t", ""); err == nil || !strings.Contains(err.Error(), "not the name of a record") {
			t.Errorf("%s: %v", stem, err)
		}
	}
	// Not in a folder named data.
	d := filepath.Join(t.TempDir(), "t-xeon-2026-01-01")
	os.Mkdir(d, 0o755)
	if _, _, err := resumeTarget(d, "t", ""); err == nil || !strings.Contains(err.Error(), "folder named data") {
		t.Errorf("outside data/: %v", err)
	}
	// The data folder itself is a link.
	link := filepath.Join(out, "data", "t-xeon-2026-01-02")
	os.Symlink(dataDir, link)
	if _, _, err := resumeTarget(link, "t", ""); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("data folder a link: %v", err)
	}
}

// The state written names no path to write to.
func TestStateNamesNoWritePath(t *testing.T) {
	d := t.TempDir()
	if err := writeStateIn(heldDir(t, d), state{ScenarioPath: "/x/t.yaml", ScenarioHash: "h"}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(d, stateFile))
	for _, k := range []string{"record_path", "hardware", "date"} {
		if strings.Contains(string(b), `"`+k+`"`) {
			t.Errorf("campaign.json holds %s: %s", k, b)
		}
	}
	// writeStateIn replaces a link at campaign.json instead of writing
	// through it.
	victim := filepath.Join(t.TempDir(), "v")
	os.WriteFile(victim, []byte("v"), 0o644)
	os.Remove(filepath.Join(d, stateFile))
	os.Symlink(victim, filepath.Join(d, stateFile))
	if err := writeStateIn(heldDir(t, d), state{}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "v" {
		t.Errorf("written through a link: %q", b)
	}
	// ... and never uses a link planted at a temporary name: its
	// temporary file is created exclusively under a fresh name.
	os.Symlink(victim, filepath.Join(d, stateFile+".tmp"))
	if err := writeStateIn(heldDir(t, d), state{}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "v" {
		t.Errorf("written through a link: %q", b)
	}
}

// campaign.json is read strictly, as bisect reads bisect.json: a field
// decodebench does not write (the record path, hardware and date a
// crafted or older state names among them) refuses the resume with an
// error naming the file and the field, before anything is written.
func TestResumeRefusesUnknownStateFields(t *testing.T) {
	s := parseTest(t, testScenario)
	for _, field := range []string{`"record_path": "/tmp/elsewhere/x.md"`, `"hardware": "../../elsewhere"`, `"colour": "blue"`} {
		out, dataDir := craftedFolder(t, s, "t-xeon-2026-01-01")
		path := filepath.Join(dataDir, stateFile)
		st := `{"scenario_path": "t.yaml", "scenario_hash": "` + s.Hash() + `", ` + field + `}`
		if err := os.WriteFile(path, []byte(st), 0o644); err != nil {
			t.Fatal(err)
		}
		name, _, _ := strings.Cut(field, ":")
		_, err := Resume(context.Background(), dataDir, s, Options{})
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "unknown field "+name) {
			t.Errorf("%s: Resume: %v, want an error naming %s and the field", name, err, path)
		}
		if _, err := ReadResumeState(dataDir); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: ReadResumeState: %v, want an error naming %s", name, err, path)
		}
		if b, _ := os.ReadFile(path); string(b) != st {
			t.Errorf("%s: the refused state was rewritten: %s", name, b)
		}
		if _, err := os.Stat(filepath.Join(out, "t-xeon-2026-01-01.md")); err == nil {
			t.Errorf("%s: a refused resume wrote a record", name)
		}
	}
}

// A resume with a scenario that really changed says which keys differ.
func TestResumeScenarioChangedSaysWhat(t *testing.T) {
	s := parseTest(t, testScenario)
	_, dataDir := craftedFolder(t, s, "t-xeon-2026-01-01")
	changed := parseTest(t, strings.Replace(strings.Replace(testScenario, "max_tokens: 8", "max_tokens: 9", 1), "rounds: 6", "rounds: 7, cooldown: 1s", 1))
	_, err := Resume(context.Background(), dataDir, changed, Options{})
	if err == nil {
		t.Fatal("a changed scenario resumed")
	}
	for _, want := range []string{"the scenario changed", "scenario.engine.request.max_tokens: 8 → 9", "scenario.schedule.rounds: 6 → 7", "scenario.schedule.cooldown: (absent) → 1s"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not say %q:\n%v", want, err)
		}
	}
	if strings.Contains(err.Error(), "scenario.arms") || strings.Contains(err.Error(), "scenario.feature") {
		t.Errorf("error lists keys that did not change:\n%v", err)
	}
}

// Only the scenario's meaning is compared on resume: a resume from another
// folder, with other values for the variables the scenario uses, is the
// same campaign.
func TestResumeHashIgnoresEnvAndFolder(t *testing.T) {
	src := strings.Replace(testScenario, "command: [llama-server,", "command: [\"${ENGINE}\", -m, \"${MODEL_DIR}/m.gguf\",", 1)
	dir := t.TempDir()
	path := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	load := func(wd, engine, models string) *scenarios.Scenario {
		t.Chdir(wd)
		env := map[string]string{"ENGINE": engine, "MODEL_DIR": models}
		s, _, err := scenarios.Load(path, scenarios.Options{LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	a := load(dir, "/usr/bin/llama-server", "models")
	b := load(t.TempDir(), "/opt/other/llama-server", "/abs/models")
	if a.Engine.Command[0] == b.Engine.Command[0] {
		t.Fatal("the variables did not take effect")
	}
	if a.Hash() != b.Hash() {
		t.Errorf("hash changed with the environment and the folder: %.12s vs %.12s", a.Hash(), b.Hash())
	}
	// And a resume gets past the scenario check (to the engine check,
	// which this fake campaign fails on purpose).
	_, dataDir := craftedFolder(t, a, "t-xeon-2026-01-01")
	_, err := Resume(context.Background(), dataDir, b, Options{})
	if err == nil || strings.Contains(err.Error(), "scenario changed") || !strings.Contains(err.Error(), "engine binary changed") {
		t.Errorf("resume from another folder and environment: %v", err)
	}
}

// cancelling executor: the campaign is interrupted while the run is in
// flight, and the engine's error is only a consequence of that.
type interruptingExec struct{ cancel context.CancelFunc }

func (e interruptingExec) Execute(ctx context.Context, slot Slot, run *schema.Run) error {
	e.cancel()
	<-ctx.Done()
	return errors.New("engine exited: signal: killed")
}

// A run cut short by an interruption is not journaled: it is not a failed
// run of the campaign, and the resumed campaign runs that slot again.
func TestInterruptedRunIsNotAFailure(t *testing.T) {
	c := testCampaign(t, testScenario)
	c.dataDir = t.TempDir()
	c.recPath = filepath.Join(c.dataDir, "r.md")
	c.rec = c.newRecord("x", "2026-01-01", machineIdentity(), time.Unix(0, 0))
	j, err := OpenJournalIn(heldDir(t, c.dataDir), recorder.RunsFile)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	c.journal = j
	ctx, cancel := context.WithCancel(context.Background())
	c.exec = interruptingExec{cancel}
	_, err = c.measure(ctx, Slot{Seq: 1, Round: 1, Arm: "a"}, 1)
	if !errors.Is(err, errInterrupted) {
		t.Fatalf("measure: %v, want errInterrupted", err)
	}
	if len(c.rec.Runs) != 0 {
		t.Errorf("the interrupted run is in the record: %+v", c.rec.Runs)
	}
	if runs, _ := recorder.ReadRuns(filepath.Join(c.dataDir, recorder.RunsFile)); len(runs) != 0 {
		t.Errorf("the interrupted run was journaled: %+v", runs)
	}
	if next, attempt := c.resumePoint(); next != 0 || attempt != 1 {
		t.Errorf("resume point %d attempt %d, want the slot again as a first attempt", next, attempt)
	}
	c.rec.Method.Planned = []string{"a", "b"}
	c.rec.Method.Interrupted = true
	c.conclude()
	for _, r := range c.rec.Analysis.Reasons {
		if _, failed := r.(schema.RunFailed); failed || strings.Contains(recorder.ReasonText(c.rec, r), "failed") {
			t.Errorf("an interrupted run counts as failed: %s", recorder.ReasonText(c.rec, r))
		}
	}
	if c.rec.Verdict == schema.Failed {
		t.Errorf("verdict %s", c.rec.Verdict)
	}
}
