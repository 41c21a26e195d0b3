package bisect

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/harness"
)

// A resume checks its state against the repository it names: a source
// that holds none of the bisect's commits is refused before anything
// runs; a --build not the stored one is refused, the same one is the
// person's own ask.
func TestResumeChecksTheRepository(t *testing.T) {
	repo, _ := hostileRepo(t)
	out := t.TempDir()
	res, err := Run(context.Background(), Config{Source: repo, Good: "HEAD~3", Bad: "HEAD", Build: "false", Threshold: 0.05, MaxTime: time.Nanosecond, Scenario: "llamacpp-bisect"},
		Options{Harness: harness.Options{OutDir: out, Hardware: "test", Date: "2026-01-02"}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := PrepareResume(context.Background(), res.DataDir, "")
	if err != nil {
		t.Fatal(err)
	}
	if p.Finished() || p.SameBuild {
		t.Errorf("out of time: finished %v, same build %v", p.Finished(), p.SameBuild)
	}
	if _, err := PrepareResume(context.Background(), res.DataDir, "false "); err == nil || !strings.Contains(err.Error(), "is not the command") {
		t.Errorf("another --build: %v", err)
	}
	if p, err := PrepareResume(context.Background(), res.DataDir, "false"); err != nil || !p.SameBuild {
		t.Errorf("the same --build: %v", err)
	}

	other := t.TempDir()
	gitT(t, other, "init", "-q", "-b", "main")
	gitT(t, other, "commit", "-q", "--allow-empty", "-m", "other")
	file := filepath.Join(res.DataDir, StateFile)
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(strings.Replace(string(b), `"source": "`+repo+`"`, `"source": "`+other+`"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := PrepareResume(context.Background(), res.DataDir, ""); err == nil || !strings.Contains(err.Error(), "is not a commit of the bisect's repository") {
		t.Errorf("a state pointed at another repository: %v", err)
	}
}

// The scenario a bisect's state names may be any file of this machine (a
// received state naming ~/.env): what its load refuses is said by key
// and position, never with the file's text.
func TestResumeScenarioMessagesWithheld(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		".env":       "DB_PASSWORD=hunter2hunter2 OTHER=Zq2vLm3nXw7pRt2k\n",
		"creds.yaml": "schedule: {rounds: Zq8vLm3nXw7pRt2k}\n",
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		p := &ResumePlan{st: &state{ScenarioPath: path}}
		_, err := p.checkScenario()
		if err == nil || !strings.Contains(err.Error(), "withheld") {
			t.Fatalf("%s: %v, want its messages withheld", name, err)
		}
		if strings.Contains(err.Error(), "vLm3nXw7pRt2k") {
			t.Errorf("%s: the refusal quotes the file: %v", name, err)
		}
	}
}
