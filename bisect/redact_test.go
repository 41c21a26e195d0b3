package bisect

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/harness"
	"github.com/decodebench/decodebench/redact"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// shipped is the shipped bisect scenario, as a step loads it.
func shipped(t *testing.T) *scenarios.Scenario {
	t.Helper()
	s, _, err := loadStep("llamacpp-bisect", "/c", "/r", nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A build's log, the state and the summary (its commits' subjects too)
// are written through the campaign's redactor (harness.NewRedactor), as
// a campaign's logs are: the secrets of the environment the build
// inherits are masked where the build prints them (`export -p`, a
// configure step's summary), not only those its command line shows; each
// step's campaign learns the build command's secrets, and the console
// masks them from the start.
func TestBuildWritesThroughTheCampaignsRedactor(t *testing.T) {
	const hf, db, arg, tok = "Zq8vLm3nXw7pRt2kQQ", "Zq7vLm3nXw7pRt2kQQ", "s3cr3t-arg-value", "ghp_Zq8vLm3nXw7pRt2kQQ12"
	t.Setenv("HF_TOKEN", hf)
	t.Setenv("DB_PASSWORD", db)
	repo := t.TempDir()
	gitT(t, repo, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(repo, "f"), []byte("1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitT(t, repo, "add", "f")
	gitT(t, repo, "commit", "-q", "-m", "one")
	sha := gitT(t, repo, "rev-parse", "HEAD")
	out := t.TempDir()
	dataDir := filepath.Join(out, "data", "bisect-x-test-2026-01-02")
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		t.Fatal(err)
	}
	st := &state{Source: repo, WorkDir: t.TempDir(), BaseRounds: 5, Summary: schema.Bisect{
		Schema: schema.BisectSchema, Feature: "x", Hardware: "test", Date: "2026-01-02", Good: sha, Bad: sha, Threshold: 0.03,
		Commits: []schema.BisectCommit{{SHA: sha, Subject: "rotate the key " + tok}}, DataDir: "data/bisect-x-test-2026-01-02"}}
	var console *redact.Redactor
	b := &bisector{st: st, dataDir: dataDir, sumPath: filepath.Join(out, "bisect-x-test-2026-01-02.md")}
	b.opt.Harness.LearnSecrets = func(r *redact.Redactor) { console = r }
	b.setBuild(shipped(t), `export -p | grep -E "HF_|DB_"; echo "configured with $HF_TOKEN, $DB_PASSWORD" `+hf+`; `+
		`SECRET=`+arg+` true; echo "uses `+arg+`"; exit 1`)
	step := schema.BisectStep{N: 1, Commit: sha}
	if err := b.step(context.Background(), &step); err != nil {
		t.Fatal(err)
	}
	st.Summary.Steps = append(st.Summary.Steps, step)
	if err := b.save(); err != nil {
		t.Fatal(err)
	}
	log, err := os.ReadFile(filepath.Join(dataDir, filepath.FromSlash(step.Build.Log)))
	if err != nil || !strings.Contains(string(log), "configured with") {
		t.Fatalf("build log %q (%v)", log, err)
	}
	state, _ := os.ReadFile(filepath.Join(dataDir, StateFile))
	sum, _ := os.ReadFile(b.sumPath)
	for name, text := range map[string]string{"the build log": string(log), "the state": string(state), "the summary": string(sum)} {
		for _, s := range []string{hf, db, arg, tok} {
			if strings.Contains(text, s) {
				t.Errorf("%s holds %s:\n%s", name, s, text)
			}
		}
	}
	if len(b.opt.Harness.Shell) != 1 || b.opt.Harness.Shell[0] != b.build {
		t.Errorf("the steps' campaigns do not learn the build command's secrets: Shell %q", b.opt.Harness.Shell)
	}
	if console != b.redact || console.Text("a "+arg) != "a "+redact.Mask {
		t.Errorf("the console does not mask the build's secrets")
	}
}

// A commit's subject that holds a credential is stored masked, and a
// resume, which compares the repository's commits with the stored ones,
// masks them alike.
func TestCommitSubjectsMasked(t *testing.T) {
	const tok = "ghp_Zq8vLm3nXw7pRt2kQQ12"
	repo := t.TempDir()
	gitT(t, repo, "init", "-q", "-b", "main")
	gitT(t, repo, "commit", "-q", "--allow-empty", "-m", "good")
	gitT(t, repo, "commit", "-q", "--allow-empty", "-m", "rotate the key "+tok)
	out := t.TempDir()
	res, err := Run(context.Background(), Config{Source: repo, Good: "HEAD~1", Bad: "HEAD", Build: "false", Threshold: 0.05, MaxTime: time.Nanosecond,
		Scenario: "llamacpp-bisect"}, Options{Harness: harness.Options{OutDir: out, Hardware: "test", Date: "2026-01-02"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{res.Path, filepath.Join(res.DataDir, StateFile)} {
		if b, err := os.ReadFile(f); err != nil || strings.Contains(string(b), tok) || !strings.Contains(string(b), "rotate the key") {
			t.Errorf("%s holds the subject's token, or not the subject (%v):\n%s", f, err, b)
		}
	}
	if _, err := PrepareResume(context.Background(), res.DataDir, ""); err != nil {
		t.Errorf("the resume of a bisect whose subject was masked: %v", err)
	}
}
