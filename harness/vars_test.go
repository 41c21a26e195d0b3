package harness

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/scenarios"
)

const varsScenario = `feature: t
vars: {SERVER: no-such-server-here, MODEL_DIR: models, API_TOKEN: none}
engine:
  preset: llama.cpp
  command: ["${SERVER}", -m, "${MODEL_DIR}/m.gguf", --api-key, "${API_TOKEN}", --port, "${PORT}"]
  request: {prompt: p, max_tokens: 8}
arms:
  - name: a
  - name: b
    args: [--b]
baseline: a
schedule: {rounds: 6}
counters:
  - name: c
    json: x
    expect: {a: "== 0", b: "> 0"}
unmeasured: [nothing]
`

func lookup(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func parseWith(t *testing.T, env func(string) (string, bool)) *scenarios.Scenario {
	t.Helper()
	s, _, err := scenarios.Parse("t.yaml", ".", []byte(varsScenario), scenarios.Options{LookupEnv: env})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A resume runs with the values the campaign's environment gave its
// variables, whatever the resuming shell sets or leaves unset (after
// `make demo`, a new shell had neither LLAMA_SERVER nor MODEL_DIR); a
// secret's value is never written, so the resume takes it from its own
// environment or is refused naming it; and a variable the campaign took
// from the scenario stays the scenario's.
func TestResumeRunsWithTheCampaignsVariables(t *testing.T) {
	server := fakeBinary(t, filepath.Join(t.TempDir(), "srv"), "srv build 1")
	started := parseWith(t, lookup(map[string]string{"SERVER": server, "API_TOKEN": "tok-3f9a1c77e2"}))
	_, dataDir := craftedFolder(t, started, "t-xeon-2026-01-01")
	st, err := readState(dataDir)
	if err != nil {
		t.Fatal(err)
	}
	st.Vars = environmentVars(started)
	NewRedactor(started).Walk(&st)
	st.withheld()
	if err := writeStateIn(heldDir(t, dataDir), st); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dataDir, stateFile))
	if strings.Contains(string(b), "tok-3f9a1c77e2") || !strings.Contains(string(b), `"withheld": true`) || !strings.Contains(string(b), server) {
		t.Fatalf("campaign.json keeps the secret, or not the server:\n%s", b)
	}

	// The resuming shell: no SERVER, another MODEL_DIR, no API_TOKEN.
	t.Setenv("MODEL_DIR", "/elsewhere")
	t.Setenv("SERVER", "")
	os.Unsetenv("SERVER")
	t.Setenv("API_TOKEN", "")
	os.Unsetenv("API_TOKEN")
	rs, err := ReadResumeState(dataDir)
	if err != nil {
		t.Fatal(err)
	}
	s := parseWith(t, rs.LookupEnv)
	if cmd := s.Launch("a").Command; cmd[0] != server || cmd[2] != "models/m.gguf" {
		t.Errorf("resumed command %q: want the campaign's server and the scenario's MODEL_DIR", cmd)
	}
	err = rs.Check(dataDir, s)
	if err == nil || !strings.Contains(err.Error(), "took API_TOKEN from its environment, and it is not set here") || !strings.Contains(err.Error(), "set API_TOKEN as it was") {
		t.Errorf("a withheld secret not set: %v", err)
	}
	os.Setenv("API_TOKEN", "tok-3f9a1c77e2")
	if err := rs.Check(dataDir, parseWith(t, rs.LookupEnv)); err != nil {
		t.Errorf("every variable as the campaign had it, yet: %v", err)
	}

	// A shell that sets another server is told the campaign's is used,
	// never what this shell's is.
	os.Setenv("SERVER", "/usr/bin/other")
	if rs, _ = ReadResumeState(dataDir); len(rs.Notes) != 1 || !strings.Contains(rs.Notes[0], `SERVER differs in this shell; the campaign ran with "`+server) ||
		strings.Contains(rs.Notes[0], "/usr/bin/other") {
		t.Errorf("notes: %q", rs.Notes)
	}
	// What resolved the variables otherwise is refused, naming them.
	for env, want := range map[string]string{
		"SERVER=/usr/bin/other API_TOKEN=tok-3f9a1c77e2":                      `the campaign ran with SERVER="` + server + `" from its environment, and this resume resolved it to "/usr/bin/other"`,
		"SERVER=" + server + " API_TOKEN=tok-3f9a1c77e2 MODEL_DIR=/elsewhere": `the campaign took MODEL_DIR from the scenario's vars, and this resume from its environment ("/elsewhere")`,
	} {
		m := map[string]string{}
		for _, kv := range strings.Fields(env) {
			k, v, _ := strings.Cut(kv, "=")
			m[k] = v
		}
		if err := st.checkVars(dataDir, parseWith(t, lookup(m))); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", env, err, want)
		}
	}
}

// A resume whose engine changed never says "sha256 " or ": " with nothing
// after it: it names what the campaign ran and what is there now, a
// command that does not resolve as such; a state from before variables
// were kept names the variables to set.
func TestResumeRefusalNamesWhatChanged(t *testing.T) {
	server := fakeBinary(t, filepath.Join(t.TempDir(), "srv"), "srv build 1")
	started := parseWith(t, lookup(map[string]string{"SERVER": server, "API_TOKEN": "x"}))
	es := identifyEngines(context.Background(), started)
	_, dataDir := craftedFolder(t, started, "t-xeon-2026-01-01")
	st, _ := readState(dataDir)
	st.EngineSHA256, st.ArmEngines = es.of("a").SHA256, es.armHashes()
	if err := writeStateIn(heldDir(t, dataDir), st); err != nil {
		t.Fatal(err)
	}
	_, err := Resume(context.Background(), dataDir, parseWith(t, lookup(map[string]string{"API_TOKEN": "x"})), Options{})
	if err == nil {
		t.Fatal("resumed with an engine that does not resolve")
	}
	msg := err.Error()
	if regexp.MustCompile(`sha256 [,;)]|sha256 $|\(: |: sha256`).MatchString(msg) || !strings.Contains(msg, "arm a ran sha256 "+es.of("a").SHA256[:12]) ||
		!strings.Contains(msg, `now "no-such-server-here" does not resolve (cannot resolve`) || !strings.Contains(msg, "if it set MODEL_DIR or SERVER, set them as they were") {
		t.Errorf("refusal: %s", msg)
	}
}

// A state's value of a secret-named variable is a crafted one (the state
// decodebench writes keeps none): it is withheld as if the file said so,
// so that the resume takes this shell's, and neither a note nor the list
// of variables shows this shell's secret or the file's value; no note
// shows this shell's value of any variable.
func TestResumeStateWithholdsSecretNamedValues(t *testing.T) {
	started := parseWith(t, lookup(map[string]string{"SERVER": "/opt/srv", "API_TOKEN": "tok-3f9a1c77e2"}))
	_, dataDir := craftedFolder(t, started, "t-xeon-2026-01-01")
	st, err := readState(dataDir)
	if err != nil {
		t.Fatal(err)
	}
	st.Vars = []stateVar{{Name: "SERVER", Value: "/opt/srv"}, {Name: "API_TOKEN", Value: "crafted-7d1e"}}
	if err := writeStateIn(heldDir(t, dataDir), st); err != nil {
		t.Fatal(err)
	}
	t.Setenv("API_TOKEN", "shell-secret-55aa")
	t.Setenv("SERVER", "/shell/only/srv")
	rs, err := ReadResumeState(dataDir)
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(append(rs.Notes, rs.StateVars()...), "\n")
	for _, leak := range []string{"shell-secret-55aa", "crafted-7d1e", "/shell/only"} {
		if strings.Contains(all, leak) {
			t.Errorf("the notes or variables show %q:\n%s", leak, all)
		}
	}
	if !strings.Contains(all, "API_TOKEN (a secret, from this environment)") || !strings.Contains(all, "SERVER differs in this shell") {
		t.Errorf("notes and variables:\n%s", all)
	}
	if v, _ := rs.LookupEnv("API_TOKEN"); v != "shell-secret-55aa" {
		t.Errorf("API_TOKEN resolves to %q, want this environment's", v)
	}
}

// A data folder holding a link is refused before anything in it is read:
// its stored scenario, which a resume may read, could lead to any file.
func TestResumeStateRefusesALink(t *testing.T) {
	started := parseWith(t, lookup(map[string]string{"SERVER": "/opt/srv"}))
	_, dataDir := craftedFolder(t, started, "t-xeon-2026-01-01")
	scen := filepath.Join(dataDir, "scenario.yaml")
	os.Remove(scen)
	if err := os.Symlink("/etc/passwd", scen); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadResumeState(dataDir); err == nil || !strings.Contains(err.Error(), "scenario.yaml is a symbolic link") {
		t.Errorf("%v, want the link refused", err)
	}
}

// A resume refused because its scenario changed lists each changed key
// with its values; for a scenario a received data folder named
// (Options.ReceivedScenario), which may be any file of this machine, it
// names the keys alone.
func TestScenarioChangedNamesKeysOfAReceivedScenario(t *testing.T) {
	started := parseWith(t, lookup(map[string]string{"SERVER": "/opt/srv"}))
	_, dataDir := craftedFolder(t, started, "t-xeon-2026-01-01")
	src := strings.Replace(varsScenario, "max_tokens: 8", "max_tokens: 8, model: private-7f3e9", 1)
	now, _, err := scenarios.Parse("t.yaml", ".", []byte(src), scenarios.Options{LookupEnv: lookup(map[string]string{"SERVER": "/opt/srv"})})
	if err != nil {
		t.Fatal(err)
	}
	for _, received := range []bool{false, true} {
		_, err := Resume(context.Background(), dataDir, now, Options{ReceivedScenario: received})
		if err == nil || !strings.Contains(err.Error(), "scenario.engine.request.model") {
			t.Fatalf("received %v: %v, want the changed key named", received, err)
		}
		if quoted := strings.Contains(err.Error(), "private-7f3e9"); quoted == received {
			t.Errorf("received %v: the value quoted %v: %v", received, quoted, err)
		}
	}
}
