package harness

import (
	"reflect"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/redact"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// The campaign's redactor masks every form in the record's command lines and
// environments, and the variables list gives environment values by name only.
func TestCampaignRedaction(t *testing.T) {
	src := []byte(`feature: redact-unit
baseline: a
unmeasured: [everything]
engine:
  preset: llama.cpp
  command: [llama-server, --port, "${PORT}", -m, "${MODEL}", --api-key, "${API_KEY}"]
  env:
    HF_TOKEN: hf-env-secret
  request: {endpoint: /completion, prompt: "hi", max_tokens: 4}
arms:
  - name: a
    args: [--alias, "https://u:${PW}@h/", "--hf-token=tok-eq-secret"]
    env: {DATABASE_URL: "postgres://db/x", MY_AUTH: auth-env-secret}
  - name: b
    args: [-H, "Authorization: Bearer hdr-secret"]
counters:
  - name: c
    log: 'n=(\d+)'
    expect: {a: "> 0", b: "== 0"}
vars:
  MODEL: /m/model.gguf
  API_KEY: var-api-secret
  DIR: /d
`)
	env := map[string]string{"PW": "env-url-secret", "MODEL": "/from/env.gguf"}
	s, _, err := scenarios.Parse("t.yaml", ".", src, scenarios.Options{LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
	if err != nil {
		t.Fatal(err)
	}
	r := NewRedactor(s)
	var all []string
	for _, a := range s.Arms {
		all = append(all, r.Args(append(append([]string{}, s.Engine.Command...), a.Args...))...)
		for k, v := range r.Env(mergeEnv(s.Engine.Env, a.Env)) {
			all = append(all, k+"="+v)
		}
	}
	vars := listedVars(s, r)
	for _, kv := range vars {
		all = append(all, kv.Name+"="+kv.Value)
	}
	text := strings.Join(all, "\n")
	for _, secret := range []string{"hf-env-secret", "env-url-secret", "tok-eq-secret", "auth-env-secret", "hdr-secret", "var-api-secret", "postgres://db/x"} {
		if strings.Contains(text, secret) {
			t.Errorf("%s listed:\n%s", secret, text)
		}
	}
	want := map[string]string{"MODEL": FromEnvironment, "PW": FromEnvironment, "API_KEY": Redacted}
	for _, kv := range vars {
		if w, ok := want[kv.Name]; ok && kv.Value != w {
			t.Errorf("var %s listed as %q, want %q", kv.Name, kv.Value, w)
		}
	}
	// Learned values are masked in any later text, the engine's log lines.
	if got := r.Text("main: alias https://u:env-url-secret@h/, key var-api-secret"); strings.Contains(got, "secret") {
		t.Errorf("log line: %q", got)
	}
}

func mergeEnv(a, b map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// The arguments of every version command (the engine's and an arm's own
// engine's) are learned as secrets: a token a version command takes is
// masked where the command's output shows it again with no flag before it
// (the record's Version row), and in the stored scenario.
func TestVersionCommandSecrets(t *testing.T) {
	src := []byte(`feature: redact-version
baseline: a
unmeasured: [everything]
allow_unverified: a unit test
engine:
  command: [llama-server, --port, "${PORT}"]
  version_command: [python3, -c, "print(1)", --token, zz-version-secret]
  ready: {path: /health}
  request: {endpoint: /completion, prompt: "hi", max_tokens: 4}
arms:
  - name: a
  - name: b
    engine:
      command: [other-server, --port, "${PORT}"]
      version_command: [other-server, "--api-key=zz-arm-version-secret", --version]
`)
	s, _, err := scenarios.Parse("t.yaml", ".", src, scenarios.Options{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	r := NewRedactor(s)
	for _, secret := range []string{"zz-version-secret", "zz-arm-version-secret"} {
		version := "python3 -c print(1) --token " + secret + ": authenticated\n" + secret + "\n1.0"
		if got := r.Text(version); strings.Contains(got, secret) {
			t.Errorf("version row keeps %s:\n%s", secret, got)
		}
		if got := string(r.YAML(s.Source)); strings.Contains(got, secret) {
			t.Errorf("stored scenario keeps %s:\n%s", secret, got)
		}
	}
}

// A generated text that repeats a secret is stored masked, with the hash
// of what is stored, so that check can verify it: the run's, a stream's
// and a request's, whether its text is stored or left out as the run's;
// a hash whose text is not stored stays as it was.
func TestRehashStoredAfterMasking(t *testing.T) {
	secret := "hf_" + strings.Repeat("Zq8", 12)
	text := "the key is " + secret + "."
	other := "another text " + secret
	unstored := outputSum("a text not stored")
	run := schema.Run{Output: text, OutputSHA256: outputSum(text),
		Streams: []schema.Stream{{OutputSHA256: outputSum(text)}, {Output: other, OutputSHA256: outputSum(other)}, {OutputSHA256: outputSum("")}},
		Requests: []schema.ServedRequest{{OutputSHA256: outputSum(text)}, {Output: other, OutputSHA256: outputSum(other)},
			{OutputSHA256: unstored}, {Kind: schema.RequestWarmup}}}
	cp, err := redactedRun(redact.New(redact.Source{}), run)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(cp.Output, secret) || strings.Contains(cp.Streams[1].Output, secret) || strings.Contains(cp.Requests[1].Output, secret) {
		t.Fatalf("a secret is stored: %+v", cp)
	}
	if cp.OutputSHA256 != outputSum(cp.Output) {
		t.Errorf("run: hash %.12s, text %.12s", cp.OutputSHA256, outputSum(cp.Output))
	}
	for i, st := range cp.Streams {
		if want := outputSum(schema.StreamText(cp, st)); st.OutputSHA256 != want {
			t.Errorf("stream %d: hash %.12s, its text %.12s", i, st.OutputSHA256, want)
		}
	}
	for i, want := range []string{cp.OutputSHA256, outputSum(cp.Requests[1].Output), unstored, ""} {
		if cp.Requests[i].OutputSHA256 != want {
			t.Errorf("request %d: hash %.12s, want %.12s", i, cp.Requests[i].OutputSHA256, want)
		}
	}
	// Nothing masked, nothing changed.
	plain := schema.Run{Output: "plain", OutputSHA256: outputSum("plain"), Streams: []schema.Stream{{OutputSHA256: outputSum("plain")}}}
	if cp, _ := redactedRun(redact.New(redact.Source{}), plain); !reflect.DeepEqual(cp, plain) {
		t.Errorf("a run without secrets changed: %+v", cp)
	}
}

// A campaign's redactor (NewRedactor, the one constructor of it) knows
// the secrets of the environment every engine and build inherits and of
// the shell commands run beside the campaign (Options.Shell: a bisect's
// build command), where an engine's log prints them with no name before.
func TestCampaignRedactorLearnsShell(t *testing.T) {
	t.Setenv("DB_PASSWORD", "Zq7vLm3nXw7pRt2kQQ")
	src := []byte("feature: redact-shell\nbaseline: a\nunmeasured: [everything]\nallow_unverified: a unit test\n" +
		"engine:\n  command: [llama-server, --port, \"${PORT}\"]\n  ready: {path: /health}\n" +
		"  request: {endpoint: /completion, prompt: \"hi\", max_tokens: 4}\narms:\n  - name: a\n  - name: b\n")
	s, _, err := scenarios.Parse("t.yaml", ".", src, scenarios.Options{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	c, err := newCampaign(s, Options{Shell: []string{"cmake -DAPI_TOKEN=zz-build-secret . && make"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.redact.Text("built with zz-build-secret, db Zq7vLm3nXw7pRt2kQQ"); got != "built with [redacted], db [redacted]" {
		t.Errorf("the campaign's redactor: %q", got)
	}
}
