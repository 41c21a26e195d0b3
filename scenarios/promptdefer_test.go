package scenarios

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A deferred prompt file is not read at parse, not even looked at (a file
// that is not there is no error yet); ReadPromptFile then reads it as
// Parse would have, and the scenario gets the hash a plain parse gives it.
func TestDeferPromptFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "prompt.txt")
	src := []byte(withPromptFile(t, path))
	s, _, err := Parse("t.yaml", ".", src, Options{LookupEnv: noEnv, DeferPromptFile: true})
	if err != nil {
		t.Fatal(err)
	}
	if !s.PromptDeferred() || s.Engine.Request.Prompt != "" {
		t.Fatalf("deferred: %v, prompt %q", s.PromptDeferred(), s.Engine.Request.Prompt)
	}
	if err := s.ReadPromptFile(); err == nil || !strings.Contains(err.Error(), "cannot read prompt file") {
		t.Errorf("a missing prompt file read: %v", err)
	}
	if err := os.WriteFile(path, []byte("Once upon a time"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.ReadPromptFile(); err != nil {
		t.Fatal(err)
	}
	plain, _, err := Parse("t.yaml", ".", src, Options{LookupEnv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	if s.PromptDeferred() || s.Engine.Request.Prompt != "Once upon a time" || s.Hash() != plain.Hash() {
		t.Errorf("read: deferred %v, prompt %q, hash %.12s, a plain parse's %.12s", s.PromptDeferred(), s.Engine.Request.Prompt, s.Hash(), plain.Hash())
	}
	// A stored prompt stands in for the file: nothing is deferred.
	s, _, err = Parse("t.yaml", ".", src, Options{LookupEnv: noEnv, DeferPromptFile: true, PromptText: "stored"})
	if err != nil || s.PromptDeferred() || s.Engine.Request.Prompt != "stored" {
		t.Errorf("with the stored prompt: %v, deferred %v, prompt %q", err, s != nil && s.PromptDeferred(), s.Engine.Request.Prompt)
	}
}
