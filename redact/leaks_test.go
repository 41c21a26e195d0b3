package redact

import (
	"slices"
	"strings"
	"testing"
)

type leakArm struct {
	Name    string            `json:"name"`
	Command []string          `json:"command"`
	Env     map[string]string `json:"env,omitempty"`
}

type leakVar struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type leakRecord struct {
	Title     string    `json:"title"`
	Arms      []leakArm `json:"arms"`
	Notes     []string  `json:"notes"`
	Vars      []leakVar `json:"vars"`
	Overrides []string  `json:"overrides"`
}

// Leaks names each place that holds what a write would mask, by path, and
// passes what decodebench writes: masks, references, ordinary text.
func TestLeaksNamesPlacesNotValues(t *testing.T) {
	clean := leakRecord{
		Title: "tokens per second, tests pass",
		Arms: []leakArm{{Name: "a", Command: []string{"llama-server", "--api-key", Mask, "-m", "m.gguf"},
			Env: map[string]string{"HF_TOKEN": Mask, "API_KEY": "${API_KEY}", "THREADS": "4"}}},
		Notes:     []string{"curl -u $USER:$PASS http://x", "Authorization: Bearer " + Mask, "curl -u alice:" + Mask + " http://x"},
		Vars:      []leakVar{{"API_KEY", Mask}, {"HF_TOKEN", "(from the environment)"}, {"THREADS", "4"}},
		Overrides: []string{"engine.env.API_KEY=" + Mask, "arms[1].engine.env.HF_TOKEN=${HF_TOKEN}", "schedule.rounds=5"},
	}
	if got := Leaks(&clean, "(from the environment)"); len(got) != 0 {
		t.Errorf("a masked record: %v", got)
	}
	leaky := clean
	leaky.Arms = []leakArm{
		{Name: "a", Command: []string{"llama-server", "--api-key", "sk-live-abcdefghij0123456789"}},
		{Name: "b", Command: []string{"x"}, Env: map[string]string{"HF_TOKEN": "hf_abcdefghijklmnopqrstuvwxyz0123", "THREADS": "4"}},
	}
	leaky.Notes = []string{"ok", "curl -u alice:s3cretpw http://x", `curl -'u' bob:hunter2 x`, `sh -c "curl -\u carol:pw77 http://h"`}
	leaky.Vars = []leakVar{{"THREADS", "4"}, {"API_KEY", "s3cr3tValue99"}}
	leaky.Overrides = []string{"schedule.rounds=5", "arms[1].engine.env.HF_TOKEN=s3cr3tValue99"}
	want := []string{"arms[0].command", "arms[1].env[HF_TOKEN]", "notes[1]", "notes[2]", "notes[3]", "vars[1]", "overrides[1]"}
	if got := Leaks(&leaky, "(from the environment)"); !slices.Equal(got, want) {
		t.Errorf("Leaks = %v, want %v", got, want)
	}
	for _, p := range Leaks(&leaky) {
		for _, secret := range []string{"sk-live", "hf_abc", "s3cretpw", "hunter2", "s3cr3tValue99"} {
			if strings.Contains(p, secret) {
				t.Errorf("a path quotes a secret: %s", p)
			}
		}
	}
}
