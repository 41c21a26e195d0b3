package harness

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A model file the engine command names, rewritten under the campaign
// (same size, its modification time set back), fails the next run's
// check; one only touched passes it. A resume sees the change per arm.
func TestEngineSetNoticesARewrittenModel(t *testing.T) {
	dir := t.TempDir()
	bin := fakeBinary(t, filepath.Join(dir, "srv"), "srv build 1")
	model := filepath.Join(dir, "model.gguf")
	if err := os.WriteFile(model, []byte("100.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	os.Chtimes(model, old, old)
	c := testCampaign(t, oneEngine(bin+", -m, "+model, "", ""))
	es := identifyEngines(context.Background(), c.scenario)
	if n := len(es.of("head").Models); n != 1 {
		t.Fatalf("%d model files identified, want 1", n)
	}
	st := state{ArmModels: es.armModels()}
	later := time.Now().Add(time.Hour)
	os.Chtimes(model, later, later)
	if err := es.check("head"); err != nil {
		t.Errorf("touched only: %v", err)
	}
	if err := os.WriteFile(model, []byte("300.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(model, later, later)
	err := es.check("head")
	if err == nil || !strings.Contains(err.Error(), "the model file "+model+" changed since the campaign started") {
		t.Errorf("rewritten model: %v", err)
	}
	again := identifyEngines(context.Background(), c.scenario)
	got := again.changedSince(st)
	if len(got) != 2 || !strings.HasPrefix(got[0], "arm base ran the models ") || !strings.HasPrefix(got[1], "arm head ran the models ") {
		t.Errorf("changed since: %v", got)
	}
}

// A model in a folder whose name reads as a credential (password=…) is
// masked in the campaign state as every text there is: the resume still
// finds the models unchanged (they are compared by their hashes).
func TestResumeModelsInACredentialLookingFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "password=hunter2")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := fakeBinary(t, filepath.Join(dir, "srv"), "srv build 1")
	model := filepath.Join(dir, "model.gguf")
	if err := os.WriteFile(model, []byte("weights"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := testCampaign(t, oneEngine(bin+", -m, "+model, "", ""))
	es := identifyEngines(context.Background(), c.scenario)
	st := state{ArmModels: es.armModels()}
	NewRedactor(c.scenario).Walk(&st)
	if again := identifyEngines(context.Background(), c.scenario); len(again.changedSince(st)) != 0 {
		t.Errorf("unchanged models refused: %v", again.changedSince(st))
	}
}
