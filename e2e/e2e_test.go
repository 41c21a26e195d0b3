// Package e2e runs the decodebench binary as a user would, against the real
// llama-server on the synthetic models that `make models` generates.
//
// The tests need llama-server and the models: `make test` provides both and
// passes them in DECODEBENCH_LLAMA_SERVER and DECODEBENCH_MODELS. Outside
// CI a missing engine skips these tests with a hint; in CI (CI=true) it is a
// failure, so that a broken install step cannot hide behind a green run.
package e2e

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

var (
	binary      string // the decodebench binary built for these tests
	synthgguf   string // cmd/synthgguf, built for these tests
	llamaServer string
	modelDir    string
	chaoticDir  string // models whose greedy output diverges under speculation
	setupErr    error
)

func TestMain(m *testing.M) {
	spinIfAsked()
	dir, err := os.MkdirTemp("", "decodebench-e2e-")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "decodebench")
	// Every decodebench these tests start takes a host lock of its own,
	// never the user's (a campaign running on the host must not fail the
	// tests): this one, unless the test gives it one of its own (launch).
	os.Setenv("DECODEBENCH_LOCK", filepath.Join(dir, "host.lock"))
	synthgguf = filepath.Join(dir, "synthgguf")
	// Both binaries in one go build, once for the package: each named
	// after its package in dir.
	build := exec.Command("go", "build", "-o", dir+string(filepath.Separator), "../cmd/decodebench", "../cmd/synthgguf")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build ../cmd/decodebench ../cmd/synthgguf:", err)
		os.Exit(1)
	}
	setupErr = findEngine()
	flag.Parse()
	stop := progress(os.Stderr, time.Minute)
	code := m.Run()
	stop()
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
	chaoticDir = os.Getenv("DECODEBENCH_CHAOTIC_MODELS")
	if chaoticDir == "" {
		chaoticDir, _ = filepath.Abs("../.cache/models-chaotic")
	}
	for _, d := range []string{modelDir, chaoticDir} {
		for _, f := range []string{"target.gguf", "draft.gguf"} {
			if _, err := os.Stat(filepath.Join(d, f)); err != nil {
				return fmt.Errorf("no synthetic model %s: run `make models` (or `make test`)", filepath.Join(d, f))
			}
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
	// Tag is a fresh tag(t) when empty.
	Feature, Tag string
	// Arms replaces the arms section (YAML list items); by default a
	// classic and a draft arm with ClassicArgs and DraftArgs, which
	// default to no speculation and to the synthetic draft model.
	Arms                   string
	ClassicArgs, DraftArgs string
	Baseline               string
	Rounds, MaxTokens      int
	Warmup                 int
	// Requests is schedule.requests; left out when 0.
	Requests int
	Counters string
	// Gates replaces the default publishability gates. The pipeline tests
	// turn the spread and contention gates off (0): the host they run on
	// is a shared, sometimes throttled 2-core VM, and those gates are
	// unit-tested in harness/ on synthetic runs.
	Gates string
	// Extra is appended at the top level (exactness, on_failure, …).
	Extra string
	// Request lines added under engine.request (4 spaces of indent).
	Request     string
	Prompt      string
	Temperature string
	Seed        string
	Ctx         int
	Ready       string
	Order       string
	// Cooldown is schedule.cooldown; 0s when empty: the tests that
	// assert a statistical outcome, and TestValidCampaign (the full path),
	// keep a fixed 200ms.
	Cooldown string
	// Models is the model folder; the default synthetic pair when empty.
	Models string
	// Threads is llama-server's -t; 2 when 0.
	Threads int
}

func (s scenario) yaml() string {
	def := func(v *string, d string) {
		if *v == "" {
			*v = d
		}
	}
	if s.Rounds == 0 {
		s.Rounds = 4
	}
	if s.MaxTokens == 0 {
		s.MaxTokens = 64
	}
	if s.Ctx == 0 {
		s.Ctx = 512
	}
	if s.Threads == 0 {
		s.Threads = 2
	}
	def(&s.Order, "rotate")
	if s.Requests > 0 {
		s.Order += fmt.Sprintf("\n  requests: %d", s.Requests)
	}
	def(&s.Cooldown, "0s")
	def(&s.Prompt, "Once upon a time")
	def(&s.Temperature, "0")
	def(&s.Seed, "0")
	def(&s.Baseline, "classic")
	def(&s.Ready, "{timeout: 60s}")
	def(&s.Counters, `  - name: drafts
    metric: "llamacpp:spec_decode_num_drafts_total"
    expect: {classic: "== 0", draft: "> 0"}
  - name: draft_tokens
    json: timings.draft_n
    expect: {classic: "== 0", draft: "> 0"}
`)
	def(&s.ClassicArgs, `"--spec-type", "none"`)
	def(&s.DraftArgs, `"--spec-type", "draft-simple", "--spec-draft-model", "${MODEL_DIR}/draft.gguf"`)
	def(&s.Gates, "gates: {max_spread: 0, max_contended: 0}\n")
	def(&s.Arms, fmt.Sprintf("  - name: classic\n    args: [%s]\n  - name: draft\n    args: [%s]\n", s.ClassicArgs, s.DraftArgs))
	rounds := fmt.Sprint(s.Rounds)
	if strings.Contains(s.Extra, "#adaptive") {
		rounds = "{min: 3, max: 4, until_ci_width: 0.01%}"
	}
	return fmt.Sprintf(`feature: %s
title: e2e %s
vars:
  LLAMA_SERVER: llama-server
  MODEL_DIR: models
engine:
  preset: llama.cpp
  command: ["${LLAMA_SERVER}", "-m", "${MODEL_DIR}/target.gguf", "--host", "127.0.0.1", "--port", "${PORT}",
            "--metrics", "-t", "%d", "-np", "1", "-c", "%d", "--alias", "%s"]
  ready: %s
  stop_grace: 2s
  request:
    prompt: %q
    max_tokens: %d
    temperature: %s
    seed: %s
    ignore_eos: true
%sarms:
%sbaseline: %s
schedule:
  rounds: %s
  warmup: %d
  order: %s
  cooldown: %s
counters:
%s%s%s
unmeasured:
  - Everything but the end-to-end path: this is a test.
`, s.Feature, s.Feature, s.Threads, s.Ctx, s.Tag, s.Ready, s.Prompt, s.MaxTokens, s.Temperature, s.Seed, s.Request, s.Arms, s.Baseline,
		rounds, s.Warmup, s.Order, s.Cooldown, s.Counters, s.Gates, s.Extra)
}

type result struct {
	code   int
	stdout string
	stderr string
	record *schema.Record
	md     string
	path   string
}

// run writes the scenario into a temporary folder and runs decodebench on
// it to the end, with the real engine and models.
func run(t *testing.T, s scenario, args ...string) result {
	t.Helper()
	p := start(t, s, args...)
	return p.wait(t)
}

// proc is a decodebench run in progress.
type proc struct {
	cmd    *exec.Cmd
	dir    string
	out    string
	tag    string
	stdout bytes.Buffer
	lines  chan string // stderr lines as they arrive
	stderr strings.Builder
	// unset are variables left out of decodebench's environment (a new
	// shell's), LLAMA_SERVER and MODEL_DIR among them.
	unset []string
	mu    sync.Mutex
	done  chan struct{}
}

// start writes the scenario and starts decodebench in the background.
func start(t *testing.T, s scenario, args ...string) *proc {
	t.Helper()
	needEngine(t)
	if s.Tag == "" {
		s.Tag = tag(t)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "scenario.yaml")
	if err := os.WriteFile(path, []byte(s.yaml()), 0o644); err != nil {
		t.Fatal(err)
	}
	p := &proc{dir: dir, out: filepath.Join(dir, "records"), tag: s.Tag, lines: make(chan string, 1000), done: make(chan struct{})}
	full := append([]string{"run", "--out", p.out, "--date", "2026-01-02"}, args...)
	if !slices.Contains(args, "--resume") {
		full = append(full, path)
	}
	return p.launch(t, s.Models, full...)
}

func (p *proc) launch(t *testing.T, models string, args ...string) *proc {
	t.Helper()
	if models == "" {
		models = modelDir
	}
	p.cmd = exec.Command(binary, args...)
	p.cmd.Dir = p.dir
	p.cmd.Env = append(os.Environ(), "LLAMA_SERVER="+llamaServer, "MODEL_DIR="+models)
	p.cmd.Env = slices.DeleteFunc(p.cmd.Env, func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return slices.Contains(p.unset, name)
	})
	// Each test its own host lock (and engine registry beside it): a
	// campaign a failed test left behind must not hold up the next.
	p.cmd.Env = append(p.cmd.Env, "DECODEBENCH_LOCK="+filepath.Join(p.dir, "host.lock"))
	p.cmd.Stdout = &p.stdout
	pipe, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(p.done)
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			p.mu.Lock()
			p.stderr.WriteString(sc.Text() + "\n")
			p.mu.Unlock()
			select {
			case p.lines <- sc.Text():
			default:
			}
		}
	}()
	return p
}

// waitFor blocks until a stderr line contains substr, or fails the test.
func (p *proc) waitFor(t *testing.T, substr string, timeout time.Duration) {
	t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case l := <-p.lines:
			if strings.Contains(l, substr) {
				return
			}
		case <-p.done:
			t.Fatalf("decodebench ended before printing %q", substr)
		case <-deadline:
			t.Fatalf("no %q within %s", substr, timeout)
		}
	}
}

// wait waits for decodebench to exit and reads its record.
func (p *proc) wait(t *testing.T) result {
	t.Helper()
	<-p.done
	err := p.cmd.Wait()
	p.mu.Lock()
	res := result{stdout: p.stdout.String(), stderr: p.stderr.String()}
	p.mu.Unlock()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		res.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("run decodebench: %v", err)
	}
	t.Logf("decodebench exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	matches, _ := filepath.Glob(filepath.Join(p.out, "*.md"))
	if len(matches) == 1 {
		res.path = matches[0]
		b, _ := os.ReadFile(res.path)
		res.md = string(b)
		rec, err := recorder.Load(res.path)
		if err != nil {
			t.Fatalf("parse record: %v", err)
		}
		res.record = rec
	}
	assertNoEngineLeft(t, p.tag)
	return res
}

// enginePID returns the pid of the running engine carrying the tag.
func enginePID(t *testing.T, tag string) int {
	t.Helper()
	pids := processesWith(tag)
	if len(pids) != 1 {
		t.Fatalf("want one engine process tagged %s, found %v", tag, pids)
	}
	n, _ := strconv.Atoi(pids[0])
	return n
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
