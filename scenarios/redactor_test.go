package scenarios

import (
	"strings"
	"testing"
)

const secretScenario = `feature: stored-hash
baseline: a
unmeasured: [everything]
allow_unverified: a unit test
vars:
  API_KEY: SECRET1
engine:
  command: [llama-server, --port, "${PORT}", --api-key, "${API_KEY}"]
  env:
    GH_PAT: SECRET2
    HF_HUB: hf_SECRET3SECRET3SECRET3SECRET3
  ready: {path: /health}
  request: {endpoint: /completion, prompt: "hi", max_tokens: 4}
arms:
  - name: a
  - name: b
    args: [--hf-token, SECRET4]
`

func secretVariant(n string) string {
	return strings.NewReplacer("SECRET1", "var"+n+"secret", "SECRET2", "pat"+n+"secret", "SECRET3", "Hub"+n+"Secret", "SECRET4", "hf"+n+"secret").Replace(secretScenario)
}

// A scenario's hash is the meaning of the scenario as a record stores it:
// the stored form (every secret masked), read back offline as check reads
// it, hashes to the same, and two scenarios that differ in their secrets
// alone hash the same.
func TestHashIsOfTheStoredForm(t *testing.T) {
	var hashes []string
	for _, n := range []string{"1", "2"} {
		for _, set := range [][]string{nil, {"engine.env.MY_TOKEN=set" + n + "secret", "schedule.rounds=3"}} {
			s, _, err := Parse("s.yaml", ".", []byte(secretVariant(n)), Options{Set: set})
			if err != nil {
				t.Fatal(err)
			}
			r := s.Redactor()
			stored := r.YAML(s.Source)
			if strings.Contains(string(stored), "secret") {
				t.Fatalf("stored form keeps a secret:\n%s", stored)
			}
			var overrides []string
			for _, o := range s.Overrides {
				overrides = append(overrides, r.Text(o))
			}
			back, _, err := Parse("scenario.yaml", "elsewhere", stored, Options{Offline: true, Set: overrides})
			if err != nil {
				t.Fatal(err)
			}
			if back.Hash() != s.Hash() {
				t.Errorf("variant %s, overrides %q: hashes to %.12s, its stored form to %.12s", n, set, s.Hash(), back.Hash())
			}
			if len(set) == 0 {
				hashes = append(hashes, s.Hash())
			}
		}
	}
	if hashes[0] != hashes[1] {
		t.Errorf("scenarios that differ in their secrets alone hash %.12s and %.12s", hashes[0], hashes[1])
	}
	// What is not a secret still counts.
	s, _, err := Parse("s.yaml", ".", []byte(strings.Replace(secretVariant("1"), "max_tokens: 4", "max_tokens: 5", 1)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Hash() == hashes[0] {
		t.Error("max_tokens changed, the hash did not")
	}
}

// A scenario whose stored form would not load is refused at load, at the
// key, rather than run into a record that check can never pass: here the
// expectation of an arm whose name reads as a credential's.
func TestStoredFormMustLoad(t *testing.T) {
	src := strings.Replace(secretVariant("1"), "allow_unverified: a unit test\n", "", 1)
	src = strings.Replace(src, "- name: b", "- name: api-token", 1) + `counters:
  - name: c
    log: 'n=([0-9]+)'
    expect: {a: "== 0", api-token: "> 0"}
`
	_, _, err := Parse("s.yaml", ".", []byte(src), Options{})
	if err == nil || !strings.Contains(err.Error(), "once masked as a secret where a record stores the scenario") {
		t.Fatalf("got %v", err)
	}
	if !strings.Contains(err.Error(), "s.yaml:2") {
		t.Errorf("no file and line: %v", err)
	}
}
