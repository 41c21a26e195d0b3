package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// An engine does not get a CI runner's file-command variables: a pull
// request's build run as an arm appended a variable to $GITHUB_ENV
// (NODE_OPTIONS for every later step) and text to $GITHUB_STEP_SUMMARY.
// A real command engine writes to each variable it was given; the files
// stay empty, and a variable of the scenario's own env still reaches it.
func TestEngineGetsNoRunnerFileCommands(t *testing.T) {
	dir := t.TempDir()
	for _, k := range []string{"GITHUB_ENV", "GITHUB_OUTPUT", "GITHUB_PATH", "GITHUB_STATE", "GITHUB_STEP_SUMMARY"} {
		f := filepath.Join(dir, k)
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Setenv(k, f)
	}
	t.Setenv("ACTIONS_ID_TOKEN_REQUEST_TOKEN", "oidc-request-token")
	script := `for f in "$GITHUB_ENV" "$GITHUB_OUTPUT" "$GITHUB_PATH" "$GITHUB_STATE" "$GITHUB_STEP_SUMMARY"; do [ -n "$f" ] && echo 'NODE_OPTIONS=--require /tmp/evil.js' >>"$f"; done
echo "oidc=${ACTIONS_ID_TOKEN_REQUEST_TOKEN:-none} own=$OWN"`
	log := filepath.Join(dir, "e.log")
	if _, err := RunCommand(context.Background(), CommandConfig{Command: []string{"sh", "-c", script}, Env: map[string]string{"OWN": "yes"},
		LogPath: log, Label: "measured", Timeout: time.Minute}); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"GITHUB_ENV", "GITHUB_OUTPUT", "GITHUB_PATH", "GITHUB_STATE", "GITHUB_STEP_SUMMARY"} {
		if b, _ := os.ReadFile(filepath.Join(dir, k)); len(b) > 0 {
			t.Errorf("the engine wrote $%s: %q", k, b)
		}
	}
	if b, _ := os.ReadFile(log); !strings.Contains(string(b), "oidc=none own=yes") {
		t.Errorf("the engine's environment:\n%s", b)
	}
}
