package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/internal/synthrecords"
	"github.com/decodebench/decodebench/schema"
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
	// No committed record is of today's rule when it is new: the runs of
	// one judged again under it, started after the rule came, by a build
	// whose commit names no rule.
	made, err := synthrecords.Generate(synthrecords.Spec{Source: "../../docs/benchmark_results/spec-draft-epyc-2026-12-05-4.md", Dir: t.TempDir(), N: 1,
		Start: time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC), Rule: schema.RuleCurrent,
		Mutate: func(_ int, rec *schema.Record) { rec.Method.Commit = "" }})
	if err != nil {
		t.Fatal(err)
	}
	today := made[0]
	hl := filepath.Join(t.TempDir(), "today.md")
	if out, err := run("--headline", hl, today); err != nil || !strings.Contains(out, "ok   ") {
		t.Fatalf("a record of today's rule: %v\n%s", err, out)
	}
	if b, err := os.ReadFile(hl); err != nil || !strings.Contains(string(b), "`draft` vs") {
		t.Errorf("its headline: %v\n%s", err, b)
	}
	// Its summary counts the record's runs, as the record's page does (from
	// the page alone it said "0 measured, 0 failed").
	page, _ := os.ReadFile(today)
	headline, _ := os.ReadFile(hl)
	if row := runsRow(string(page)); row == "" || strings.HasPrefix(row, "| Runs | 0 measured") || runsRow(string(headline)) != row {
		t.Errorf("the headline's runs %q, the record's %q", runsRow(string(headline)), row)
	}
	older := copyRecord(t, "spec-draft-epyc-2026-12-02")
	hl = filepath.Join(t.TempDir(), "older.md")
	out, err := run("--headline", hl, older)
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != 1 || !strings.Contains(ee.msg, fmt.Sprintf(`is judged under rule "robust-2", not this decodebench's %s`, schema.RuleCurrent)) {
		t.Errorf("a record of an earlier rule: %v\n%s", err, out)
	}
	if _, err := os.Stat(hl); !os.IsNotExist(err) {
		t.Errorf("a headline was written for it: %v", err)
	}
	// The first rule, which its records name by no rule at all, by its
	// name (it said rule "").
	if _, err := run("--headline", hl, copyRecord(t, "spec-draft-epyc-2026-11-29")); !errors.As(err, &ee) || !strings.Contains(ee.msg, `is judged under rule "median-U (the first)", not`) {
		t.Errorf("a record of the first rule: %v", err)
	}
	note := fmt.Sprintf("  note: its runs are judged otherwise under today's rule %s than under its own (robust-2): arm draft significantly lower", schema.RuleCurrent)
	if !strings.Contains(out, "ok   ") || !strings.Contains(out, note) {
		t.Errorf("check of it says:\n%s\nwant it ok with the note %q", out, note)
	}
}

// runsRow is the summary's row of runs in a record's page or headline.
func runsRow(md string) string {
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "| Runs | ") {
			return l
		}
	}
	return ""
}
