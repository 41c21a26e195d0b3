package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/scenarios"
)

// validate prints each problem once, and an estimate for a valid file.
func TestValidatePrintsEachProblemOnce(t *testing.T) {
	src, err := scenarios.ShippedSource("llamacpp-speculative")
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(src), `"--port", "${PORT}", `, "", 1) // a warning
	bad = strings.Replace(bad, "order: rotate", "order: shuffle", 1)    // an error
	path := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	app := newApp()
	app.Writer, app.ErrWriter = &out, &errOut
	err = app.Run([]string{"decodebench", "validate", path, "llamacpp-speculative"})
	if err == nil {
		t.Fatal("validate passed a scenario with an error")
	}
	for _, want := range []string{"no ${PORT}", `"shuffle" is not one of`} {
		if n := strings.Count(errOut.String(), want); n != 1 {
			t.Errorf("%q printed %d times:\n%s", want, n, errOut.String())
		}
	}
	if !strings.Contains(out.String(), "embedded:llamacpp-speculative.yaml: ok") || !strings.Contains(out.String(), "15 to 30 runs, estimated 7m22s, a guess: an engine start of 5s, 50 tok/s") {
		t.Errorf("no estimate for the valid scenario:\n%s", out.String())
	}
}
