package harness

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// A resume goes on from what its record names: a file changed since the
// record was written (a line an engine added to the journal, a stored
// scenario rewritten) refuses it, where it sealed the folder as it found
// it and the record then vouched for the engine's lines. A later session
// killed before its record (the state lists more resumes than the record)
// leaves runs after the record's in the journal: those are the folder's
// to say.
func TestResumeSealsWhatItsRecordNames(t *testing.T) {
	src := strings.Replace(testScenario, "rounds: 6", "rounds: 4, cooldown: 0s", 1)
	c := testCampaign(t, src)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c.exec = &fakeEngine{cancel: 3, stop: cancel}
	if out := executeTest(t, ctx, c); out.Record.Verdict != schema.Incomplete {
		t.Fatalf("verdict %s, want INCOMPLETE", out.Record.Verdict)
	}
	c.releaseFolders() // the campaign ended: a resume holds them
	journal := filepath.Join(c.dataDir, recorder.RunsFile)
	clean, err := os.ReadFile(journal)
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := bytes.Cut(clean, []byte("\n"))
	resume := func(resumes int) error {
		t.Helper()
		r := testCampaign(t, src)
		r.recPath, r.dataDir = c.recPath, c.dataDir
		if err := r.holdFolders(); err != nil {
			t.Fatal(err)
		}
		defer r.releaseFolders()
		st := state{Resumed: make([]time.Time, resumes)}
		return r.sealForResume(st)
	}
	write := func(b []byte) {
		t.Helper()
		if err := os.WriteFile(journal, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := resume(0); err != nil {
		t.Fatalf("the folder as its record names it: %v", err)
	}
	write(append(append([]byte{}, clean...), append(first, '\n')...))
	if err := resume(0); err == nil || !strings.Contains(err.Error(), "runs.jsonl: changed or removed since the record was written") {
		t.Errorf("a run appended to the journal: %v", err)
	}
	// A later session's run, its record never written: the journal
	// begins with the record's runs.
	if err := resume(1); err != nil {
		t.Errorf("a later session's run after the record's: %v", err)
	}
	write(bytes.Replace(clean, []byte(`"seq":1`), []byte(`"seq":1 `), 1))
	if err := resume(1); err == nil || !strings.Contains(err.Error(), "the journal does not begin with the runs its record") {
		t.Errorf("the record's runs changed, a later session: %v", err)
	}
	write(clean)
	if err := os.WriteFile(filepath.Join(c.dataDir, recorder.ScenarioFile), []byte("feature: other\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := resume(0); err == nil || !strings.Contains(err.Error(), "scenario.yaml") {
		t.Errorf("the stored scenario rewritten: %v", err)
	}
}
