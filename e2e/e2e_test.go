// Package e2e runs the decodebench binary as a user would, against the real
// llama-server on the synthetic models that `make models` generates.
//
// The tests need llama-server and the models: `make test` provides both and
// passes them in DECODEBENCH_LLAMA_SERVER and DECODEBENCH_MODELS. Outside
// CI a missing engine skips these tests with a hint; in CI (CI=true) it is a
// failure, so that a broken install step cannot hide behind a green run.
package e2e

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/recorder"
)

var (
	binary      string // the decodebench binary built for these tests
	llamaServer string
	modelDir    string
	setupErr    error
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "decodebench-e2e-")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "decodebench")
	build := exec.Command("go", "build", "-o", binary, "../cmd/decodebench")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build decodebench:", err)
		os.Exit(1)
	}
	setupErr = findEngine()
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func findEngine() error {
	llamaServer = os.Getenv("DECODEBENCH_LLAMA_SERVER")
	if llamaServer == "" {
		p, err := exec.LookPath("llama-server")
		if err != nil {
			return errors.New("no llama-server: set DECODEBENCH_LLAMA_SERVER or run `make test`, which installs it")
		}
		llamaServer = p
	}
	modelDir = os.Getenv("DECODEBENCH_MODELS")
	if modelDir == "" {
		modelDir, _ = filepath.Abs("../.cache/models")
	}
	for _, f := range []string{"target.gguf", "draft.gguf"} {
		if _, err := os.Stat(filepath.Join(modelDir, f)); err != nil {
			return fmt.Errorf("no synthetic model %s: run `make models` (or `make test`)", filepath.Join(modelDir, f))
		}
	}
	return nil
}

// needEngine skips (or, in CI, fails) a test that needs the real engine.
func needEngine(t *testing.T) {
	t.Helper()
	if setupErr == nil {
		return
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("end-to-end test cannot run in CI: %v", setupErr)
	}
	t.Skip(setupErr)
}

// tag returns a token unique to one test, put on the engine's command line
// (llama-server's --alias) so the leak check finds exactly this test's
// processes.
func tag(t *testing.T) string {
	b := make([]byte, 6)
	rand.Read(b)
	return "e2e-" + hex.EncodeToString(b)
}

type scenario struct {
	Feature, Tag      string
	ClassicArgs       string
	DraftArgs         string
	Rounds, MaxTokens int
	Counters          string
	Extra             string
	Order, Cooldown   string
	Warmup            int
	// Gates replaces the default publishability gates. The pipeline tests
	// loosen them: on a shared 2-core machine a handful of 64-token runs
	// is too noisy for the 4% default, and that is not what they test.
	Gates string
}

func (s scenario) yaml() string {
	if s.Rounds == 0 {
		s.Rounds = 3
	}
	if s.MaxTokens == 0 {
		s.MaxTokens = 64
	}
	if s.Order == "" {
		s.Order = "rotate"
	}
	if s.Cooldown == "" {
		s.Cooldown = "200ms"
	}
	if s.Counters == "" {
		s.Counters = `  - name: drafts
    metric: "llamacpp:spec_decode_num_drafts_total"
    expect: {classic: "== 0", draft: "> 0"}
  - name: draft_tokens
    json: timings.draft_n
    expect: {classic: "== 0", draft: "> 0"}
`
	}
	if s.Gates == "" {
		s.Gates = "gates: {max_spread: 50%, max_contended: 100%}\n"
	}
	return fmt.Sprintf(`feature: %s
title: e2e %s
vars:
  LLAMA_SERVER: llama-server
  MODEL_DIR: models
engine:
  preset: llama.cpp
  command: ["${LLAMA_SERVER}", "-m", "${MODEL_DIR}/target.gguf", "--host", "127.0.0.1", "--port", "${PORT}",
            "--metrics", "-t", "2", "-np", "1", "-c", "512", "--alias", "%s"]
  ready: {timeout: 60s}
  request:
    prompt: "Once upon a time"
    max_tokens: %d
    temperature: 0
    ignore_eos: true
arms:
  - name: classic
    args: [%s]
  - name: draft
    args: [%s]
baseline: classic
schedule:
  rounds: %d
  warmup: %d
  order: %s
  cooldown: %s
counters:
%s%s%s
unmeasured:
  - Everything but the end-to-end path: this is a test.
`, s.Feature, s.Feature, s.Tag, s.MaxTokens, s.ClassicArgs, s.DraftArgs, s.Rounds, s.Warmup, s.Order, s.Cooldown, s.Counters, s.Gates, s.Extra)
}

type result struct {
	code   int
	stdout string
	stderr string
	record *recorder.Record
	md     string
	path   string
}

// run writes the scenario into a temporary folder and runs decodebench on
// it, with the real engine and models.
func run(t *testing.T, s scenario, args ...string) result {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "scenario.yaml")
	if err := os.WriteFile(path, []byte(s.yaml()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "records")
	cmd := exec.Command(binary, append([]string{"run", "--out", out, "--date", "2026-01-02", path}, args...)...)
	cmd.Env = append(os.Environ(), "LLAMA_SERVER="+llamaServer, "MODEL_DIR="+modelDir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	res := result{stdout: stdout.String(), stderr: stderr.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		res.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("run decodebench: %v", err)
	}
	t.Logf("decodebench exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	matches, _ := filepath.Glob(filepath.Join(out, "*.md"))
	if len(matches) == 1 {
		res.path = matches[0]
		b, _ := os.ReadFile(res.path)
		res.md = string(b)
		rec, err := recorder.ParseFile(res.path)
		if err != nil {
			t.Fatalf("parse record: %v", err)
		}
		res.record = rec
	}
	assertNoEngineLeft(t, s.Tag)
	return res
}

// assertNoEngineLeft fails if any process whose command line carries the
// test's tag is still alive.
func assertNoEngineLeft(t *testing.T, tag string) {
	t.Helper()
	if tag == "" {
		return
	}
	// Give the kernel a moment to reap a group that was just killed.
	deadline := time.Now().Add(3 * time.Second)
	for {
		left := processesWith(tag)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			for _, pid := range left {
				syscallKill(pid)
			}
			t.Fatalf("engine processes left running after decodebench exited: %v", left)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func processesWith(tag string) []string {
	entries, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range entries {
		if strings.Trim(e.Name(), "0123456789") != "" {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		if bytes.Contains(b, []byte(tag)) {
			stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
			if strings.Contains(string(stat), ") Z ") {
				continue // a zombie is dead, only not yet reaped
			}
			out = append(out, e.Name())
		}
	}
	return out
}
