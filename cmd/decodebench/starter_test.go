package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/scenarios"
)

// init writes, for every preset, a scenario that validate passes with at
// most the warnings of this machine (an engine binary not installed).
func TestInitThenValidateEveryPreset(t *testing.T) {
	for _, preset := range scenarios.PresetNames() {
		t.Run(preset, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "starter.yaml")
			var out, errOut bytes.Buffer
			app := newApp()
			app.Writer, app.ErrWriter = &out, &errOut
			if err := app.Run([]string{"decodebench", "init", "--preset", preset, path}); err != nil {
				t.Fatalf("init: %v\n%s", err, errOut.String())
			}
			out.Reset()
			errOut.Reset()
			if err := app.Run([]string{"decodebench", "validate", path}); err != nil {
				t.Fatalf("validate: %v\n%s", err, errOut.String())
			}
			if !strings.Contains(out.String(), path+": ok") {
				t.Errorf("validate: %s", out.String())
			}
			for _, l := range strings.Split(strings.TrimSpace(errOut.String()), "\n") {
				if l != "" && !strings.Contains(l, "does not resolve") && !strings.Contains(l, "does not exist from the current folder") {
					t.Errorf("warning not due to this machine: %s", l)
				}
			}
		})
	}
}
