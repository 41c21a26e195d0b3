package bisect

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// A bisect's resume plan lists, besides the command lines, what
// reproduce's plan lists: the engine's source folders (git runs in
// each), the files the engine's arguments name (hashed), the prompt file
// read from this machine, and the variables taken from this environment:
// bisect.json may come from someone else, and names the scenario.
func TestResumePlanListsReads(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("..", "scenarios", "llamacpp-bisect.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(src), `prompt: "Once upon a time"`, `prompt_file: prompt.txt`, 1)
	for name, body := range map[string]string{"s.yaml": text, "prompt.txt": "a private prompt", "target.gguf": "weights"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("MODEL_DIR", dir)
	s, _, err := loadStep(filepath.Join(dir, "s.yaml"), "${"+CandidateVar+"}", "${"+ReferenceVar+"}", nil)
	if err != nil {
		t.Fatal(err)
	}
	p := &ResumePlan{DataDir: "/out/data/b", SummaryPath: "/out/b.md", Scenario: s, ReuseWork: true, st: &state{
		Source: "/repo", WorkDir: "/work", ScenarioPath: s.Path,
		Summary: schema.Bisect{Good: "aaaa", Build: "make", Pending: &schema.BisectStep{N: 1, Commit: "bbbb"}},
	}}
	var b strings.Builder
	p.WritePlan(&b)
	for _, want := range []string{
		"It will read:\n  /out/data/b: the bisect's data folder",
		"  ${CANDIDATE_DIR}: the git state of the engine's source folder (git runs there)\n",
		"  " + filepath.Join(dir, "target.gguf") + ": named by the engine's arguments (its sha256)\n",
		"  " + filepath.Join(dir, "prompt.txt") + " (engine.request.prompt_file): from this machine",
		"  $MODEL_DIR from YOUR environment: ",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the plan lacks %q:\n%s", want, b.String())
		}
	}
}
