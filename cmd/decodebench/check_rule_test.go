package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// check --headline writes the headline of a record of today's rule, and
// refuses one written under another (exit 1, nothing written): what CI
// reports of the campaign this decodebench just ran is judged by this
// decodebench's rule. check prints, under a record of an earlier rule,
// what today's rule judges otherwise in its runs.
func TestCheckHeadlineWantsTodaysRule(t *testing.T) {
	run := func(args ...string) (string, error) {
		var out bytes.Buffer
		app := newApp()
		app.Writer, app.ErrWriter = &out, &out
		err := app.Run(append([]string{"decodebench", "check", "--no-cache"}, args...))
		return out.String(), err
	}
	today := copyRecord(t, "spec-draft-epyc-2026-12-05-4")
	hl := filepath.Join(t.TempDir(), "today.md")
	if out, err := run("--headline", hl, today); err != nil || !strings.Contains(out, "ok   ") {
		t.Fatalf("a record of today's rule: %v\n%s", err, out)
	}
	if b, err := os.ReadFile(hl); err != nil || !strings.Contains(string(b), "`draft` vs") {
		t.Errorf("its headline: %v\n%s", err, b)
	}
	older := copyRecord(t, "spec-draft-epyc-2026-12-02")
	hl = filepath.Join(t.TempDir(), "older.md")
	out, err := run("--headline", hl, older)
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != 1 || !strings.Contains(ee.msg, `is judged under rule "robust-2", not this decodebench's robust-10`) {
		t.Errorf("a record of an earlier rule: %v\n%s", err, out)
	}
	if _, err := os.Stat(hl); !os.IsNotExist(err) {
		t.Errorf("a headline was written for it: %v", err)
	}
	const note = "  note: its runs are judged otherwise under today's rule robust-10 than under its own (robust-2): arm draft significantly lower"
	if !strings.Contains(out, "ok   ") || !strings.Contains(out, note) {
		t.Errorf("check of it says:\n%s\nwant it ok with the note %q", out, note)
	}
}
