package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/internal/committed"
	"github.com/decodebench/decodebench/internal/safefs"
)

// check of a record whose campaign is running (a resume appending to its
// runs) says so beside its problems, and only while it runs.
func TestCheckSaysACampaignIsRunning(t *testing.T) {
	name := "spec-draft-epyc-2026-12-02-2"
	dir := committed.Copy(t, name)
	rec := filepath.Join(dir, name+".md")
	data := filepath.Join(dir, "data", name)
	f, _ := os.OpenFile(filepath.Join(data, "runs.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("{}\n") // a run the resume appended
	f.Close()
	check := func() string {
		var out bytes.Buffer
		app := newApp()
		app.Writer, app.ErrWriter = &out, &out
		app.Run([]string{"decodebench", "check", "--no-cache", rec})
		return out.String()
	}
	held, err := safefs.OpenDir(data)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := held.Lock(); !ok || err != nil {
		t.Fatalf("lock: %v %v", ok, err)
	}
	const note = "a campaign is running in its data folder now"
	if out := check(); !strings.Contains(out, "FAIL ") || !strings.Contains(out, note) {
		t.Errorf("while a campaign holds the folder:\n%s", out)
	}
	held.Close()
	if out := check(); !strings.Contains(out, "FAIL ") || strings.Contains(out, note) {
		t.Errorf("once it let go:\n%s", out)
	}
}
