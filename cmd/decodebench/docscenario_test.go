package main

import (
	"os"
	"path/filepath"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/decodebench/decodebench/scenarios"
)

// Every whole scenario the docs show (a YAML block with a feature) passes
// validate as a reader who copies it into a file would run it: in a shell
// that sets none of its variables. A variable the example uses must have
// a placeholder under vars, as the shipped scenarios do (issue 34: the
// bisect guide's example failed validate, ${REFERENCE_DIR} not defined,
// while the docs test gave every variable a value).
func TestDocScenariosValidateAsWritten(t *testing.T) {
	none := func(string) (string, bool) { return "", false }
	n := 0
	for _, block := range docBlocks(t, "yaml") {
		var doc map[string]any
		if yaml.Unmarshal([]byte(block.text), &doc) != nil || doc["feature"] == nil {
			continue
		}
		n++
		dir := t.TempDir()
		path := filepath.Join(dir, "example.yaml")
		if err := os.WriteFile(path, []byte(block.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, _, err := scenarios.Parse(path, dir, []byte(block.text), scenarios.Options{Offline: true, LookupEnv: none}); err != nil {
			t.Errorf("%s: the example fails validate in a shell without its variables:\n%v", block.at(), err)
		}
	}
	if n < 3 {
		t.Errorf("only %d whole scenarios in the documentation", n)
	}
}
