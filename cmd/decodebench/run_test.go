package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runIn runs `decodebench run ARGS` in a fresh folder that is not a clone
// and returns the error and what the folder holds afterwards.
func runIn(t *testing.T, args ...string) (error, []string) {
	t.Helper()
	dir := t.TempDir()
	t.Chdir(dir)
	var out, errOut bytes.Buffer
	app := newApp()
	app.Writer, app.ErrWriter = &out, &errOut
	full, _, err := reorderArgs(app, append([]string{"decodebench", "run"}, args...))
	if err == nil {
		err = app.Run(full)
	}
	var left []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if p != dir {
			rel, _ := filepath.Rel(dir, p)
			left = append(left, rel)
		}
		return nil
	})
	return err, left
}

// A shipped scenario run outside a clone, or with a bad --date, or with an
// engine that does not resolve, fails before it creates anything.
func TestRunRefusedWritesNothing(t *testing.T) {
	t.Setenv("LLAMA_SERVER", "/nonexistent/bin/llama-server")
	t.Setenv("MODEL_DIR", "/nonexistent/models")
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"not a calendar date", []string{"llamacpp-speculative", "--out", "records", "--date", "2026-02-30"}, exitUsage, "not a calendar date"},
		{"not a date", []string{"--date", "yesterday", "llamacpp-speculative", "--out", "records"}, exitUsage, "want YYYY-MM-DD"},
		{"outside a clone", []string{"llamacpp-speculative", "--date", "2026-01-01"}, 1, "not a decodebench clone"},
		{"engine does not resolve", []string{"llamacpp-speculative", "--out", "records", "--date", "2026-01-01", "--hw", "x"}, 1, "does not resolve"},
		// Refused with --hw, before the dry run's plan (recordname.go).
		{"name too long", []string{"llamacpp-speculative", "--out", "records", "--hw", strings.Repeat("x", 250)}, exitUsage, "shorten"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err, left := runIn(t, tc.args...)
			var ee *exitError
			if !errors.As(err, &ee) || ee.code != tc.code || !strings.Contains(ee.msg, tc.want) {
				t.Fatalf("run: %v, want exit %d saying %q", err, tc.code, tc.want)
			}
			if len(left) > 0 {
				t.Errorf("a refused run left %v", left)
			}
		})
	}
}
