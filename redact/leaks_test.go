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

type leakRecord struct {
	Title string    `json:"title"`
	Arms  []leakArm `json:"arms"`
	Notes []string  `json:"notes"`
}

// Leaks names each place that holds what a write would mask, by path, and
// passes what decodebench writes: masks, references, ordinary text.
func TestLeaksNamesPlacesNotValues(t *testing.T) {
	clean := leakRecord{
		Title: "tokens per second, tests pass",
		Arms: []leakArm{{Name: "a", Command: []string{"llama-server", "--api-key", Mask, "-m", "m.gguf"},
			Env: map[string]string{"HF_TOKEN": Mask, "API_KEY": "${API_KEY}", "THREADS": "4"}}},
		Notes: []string{"curl -u $USER:$PASS http://x", "Authorization: Bearer " + Mask},
	}
	if got := Leaks(&clean); len(got) != 0 {
		t.Errorf("a masked record: %v", got)
	}
	leaky := clean
	leaky.Arms = []leakArm{
		{Name: "a", Command: []string{"llama-server", "--api-key", "sk-live-abcdefghij0123456789"}},
		{Name: "b", Command: []string{"x"}, Env: map[string]string{"HF_TOKEN": "hf_abcdefghijklmnopqrstuvwxyz0123", "THREADS": "4"}},
	}
	leaky.Notes = []string{"ok", "curl -u alice:s3cretpw http://x"}
	want := []string{"arms[0].command", "arms[1].env[HF_TOKEN]", "notes[1]"}
	if got := Leaks(&leaky); !slices.Equal(got, want) {
		t.Errorf("Leaks = %v, want %v", got, want)
	}
	for _, p := range Leaks(&leaky) {
		for _, secret := range []string{"sk-live", "hf_abc", "s3cretpw"} {
			if strings.Contains(p, secret) {
				t.Errorf("a path quotes a secret: %s", p)
			}
		}
	}
}
