package harness

import (
	"strings"
	"testing"

	"github.com/decodebench/decodebench/scenarios"
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
