package e2e

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// The bisect test's engine history: commit 1 is good, commit slowCommit
// makes every token take slowPerToken instead of 3ms (half again as
// long), and every other commit changes something that costs nothing.
const (
	bisectCommits = 13 // commit 1 (good) and 12 after it
	slowCommit    = 9
	slowPerToken  = "4500 * time.Microsecond"
)

// bisectScenario runs the good commit's build in the reference arm and the
// candidate's in the other; the engine's own report of its build
// (timings.build, the commit's number) is the counter that proves which
// build served each run.
const bisectScenario = `feature: bisect-e2e
title: bisect test engine, reference build against candidate build
engine:
  preset: llama.cpp
  command: ["${REFERENCE_DIR}/engine", "--port", "${PORT}"]
  source: "${REFERENCE_DIR}"
  ready: {timeout: 30s}
  request:
    prompt: "hi"
    max_tokens: 24
    temperature: 0
    seed: 0
    ignore_eos: true
arms:
  - name: reference
  - name: candidate
    engine: {command: ["${CANDIDATE_DIR}/engine", "--port", "${PORT}"], source: "${CANDIDATE_DIR}"}
baseline: reference
schedule: {rounds: 5, warmup: 1, order: rotate, seed: 1, cooldown: 0s}
counters:
  - name: build
    json: timings.build
    expect: {reference: "== 1", candidate: "> 1"}
gates: {max_spread: 0, max_contended: 0}
metrics: {primary: decode_tok_s}
unmeasured:
  - Anything but the test engine's paced tokens.
`

// bisectBuild is the build command the engine's repository would supply:
// go build, with the commit's number as the build the engine reports.
const bisectBuild = `go build -ldflags "-X main.build=$(git rev-list --count HEAD)" -o engine .`

// TestBisectFindsSlowCommit: in a repository of 13 commits, one of which
// makes each token half again as slow, bisect names that commit within
// ceil(log2 12)+1 steps, never touches the user's checkout, and writes a
// summary that check passes; interrupted in the middle of a step, it
// leaves a summary that check passes and resumes that step's campaign; a
// summary whose threshold is changed (and re-rendered, so only the
// evidence can catch it) fails check.
func TestBisectFindsSlowCommit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the test engine at every step")
	}
	dir := t.TempDir()
	repo := filepath.Join(dir, "engine")
	shas := bisectRepo(t, repo)
	scen := filepath.Join(dir, "bisect.yaml")
	if err := os.WriteFile(scen, []byte(bisectScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "results")
	bisect := func(args ...string) *exec.Cmd {
		// Other campaigns on this host (other tests) hold its lock a while.
		cmd := exec.Command(binary, append([]string{"bisect", "--wait-lock", "10m"}, args...)...)
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
		return cmd
	}

	// Interrupted in the middle of step 3's campaign...
	cmd := bisect("--source", repo, "--good", shas[0], "--bad", "HEAD", "--build", bisectBuild,
		"--threshold", "10%", "--out", out, "--hw", "test", "--date", "2026-01-02", scen)
	stderrPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	sc := bufio.NewScanner(stderrPipe)
	stepsDone := 0
	for sc.Scan() {
		l := sc.Text()
		log.WriteString(l + "\n")
		if strings.HasPrefix(l, "decodebench bisect: step ") {
			stepsDone++
		}
		if stepsDone == 2 && strings.Contains(l, " run 4/") {
			_ = cmd.Process.Signal(syscall.SIGINT)
			break
		}
	}
	go io.Copy(&log, stderrPipe)
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("interrupted bisect: %v, want exit 130\n%s", err, log.String())
	}
	sumPath := filepath.Join(out, "bisect-bisect-e2e-test-2026-01-02.md")
	if b, err := exec.Command(binary, "check", sumPath).CombinedOutput(); err != nil {
		t.Fatalf("check of the interrupted bisect's summary: %v\n%s", err, b)
	}
	// ...and resumed from its data folder, where step 3's campaign goes on
	// into the same record: the build command given again, so it resumes
	// without asking.
	var stdout, stderr bytes.Buffer
	cmd = bisect("--resume", filepath.Join(out, "data", "bisect-bisect-e2e-test-2026-01-02"), "--build", bisectBuild)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	t.Logf("stdout:\n%s", stdout.String())
	if err != nil {
		t.Fatalf("bisect --resume: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "resuming ") {
		t.Errorf("the interrupted campaign was not resumed:\n%s", stderr.String())
	}

	if st := git(t, repo, "status", "--porcelain"); st != "" {
		t.Errorf("the user's checkout changed:\n%s", st)
	}
	if head := git(t, repo, "rev-parse", "HEAD"); head != shas[len(shas)-1] {
		t.Errorf("the user's HEAD moved to %s", head)
	}
	if wt := git(t, repo, "worktree", "list", "--porcelain"); strings.Count(wt, "worktree ") != 1 {
		t.Errorf("worktrees left behind:\n%s", wt)
	}

	src, err := os.ReadFile(sumPath)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := recorder.ParseBisect(src)
	if err != nil {
		t.Fatal(err)
	}
	n := len(sum.Commits)
	if n != bisectCommits-1 {
		t.Fatalf("%d commits in the range, want %d", n, bisectCommits-1)
	}
	limit := int(math.Ceil(math.Log2(float64(n)))) + 1
	if sum.Outcome.Result != schema.FoundFirstBad || sum.Outcome.FirstBad != shas[slowCommit-1] {
		t.Fatalf("outcome %s %s, want found %s", sum.Outcome.Result, sum.Outcome.FirstBad, shas[slowCommit-1])
	}
	if len(sum.Steps) > limit {
		t.Errorf("%d steps, want at most ceil(log2 %d)+1 = %d", len(sum.Steps), n, limit)
	}
	for _, s := range sum.Steps {
		t.Logf("step %d: %.12s %s, build %.1fs, step %.1fs", s.N, s.Commit, s.Class, s.Build.Seconds, s.Seconds)
		if s.Commit == shas[slowCommit-1] {
			// 3ms a token becomes 4.5ms: the rate falls to 2/3.
			c := s.Campaigns[len(s.Campaigns)-1]
			if c.Ratio < 0.62 || c.Ratio > 0.72 {
				t.Errorf("the slow commit's rate ratio is %.3f, want about 0.667", c.Ratio)
			}
		}
		if s.Class.Skipped() {
			t.Errorf("step %d skipped %.12s (%s): the test engine's builds are all distinct", s.N, s.Commit, s.Class)
		}
	}
	t.Logf("summary table:\n%s", recorder.BisectTable(sum))
	// Each step's record names both builds, each at its own commit.
	for _, s := range sum.Steps {
		rec, err := recorder.ParseFile(filepath.Join(out, filepath.FromSlash(s.Campaigns[0].Record)))
		if err != nil {
			t.Fatal(err)
		}
		if ref, cand := rec.EngineOf("reference"), rec.EngineOf("candidate"); ref.SourceCommit != shas[0] || cand.SourceCommit != s.Commit || ref.SHA256 == cand.SHA256 {
			t.Errorf("step %d's record: reference built from %.12s (sha256 %.12s), candidate from %.12s (sha256 %.12s)", s.N, ref.SourceCommit, ref.SHA256, cand.SourceCommit, cand.SHA256)
		}
	}

	check := exec.Command(binary, "check", sumPath)
	if b, err := check.CombinedOutput(); err != nil {
		t.Fatalf("check %s: %v\n%s", sumPath, err, b)
	}

	// The index lists the bisection, with its outcome and first bad commit.
	if b, err := exec.Command(binary, "index", out).CombinedOutput(); err != nil {
		t.Fatalf("index: %v\n%s", err, b)
	}
	idx, err := os.ReadFile(filepath.Join(out, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	row := fmt.Sprintf("| [bisect-bisect-e2e-test-2026-01-02](bisect-bisect-e2e-test-2026-01-02.md) | found | %s | %d | none |", shas[slowCommit-1][:12], len(sum.Steps))
	if !strings.Contains(string(idx), "## Bisections") || !strings.Contains(string(idx), row) || strings.Contains(string(idx), "Not readable") {
		t.Errorf("the index does not list the bisection as %q:\n%s", row, idx)
	}

	// A threshold changed after the fact: the summary re-renders, but its
	// linked records no longer give its classes.
	sum.Threshold = 0.9
	var md bytes.Buffer
	if err := recorder.BisectMarkdown(&md, sum); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sumPath, md.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := exec.Command(binary, "check", sumPath).CombinedOutput()
	if err == nil || !strings.Contains(string(b), "classifies as") {
		t.Errorf("check passed a summary whose threshold was changed:\n%s", b)
	}
}

// bisectRepo makes the engine's history: bisectCommits commits, the first
// the engine as it is, commit slowCommit slower per token, the others
// harmless changes. It returns the commits, oldest first.
func bisectRepo(t *testing.T, repo string) []string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "bisectengine", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(repo, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git(t, repo, "init", "-q", "-b", "main")
	write("go.mod", "module bisectengine\n\ngo 1.22\n")
	write("main.go", string(src))
	write(".gitignore", "/engine\n")
	var shas []string
	for i := 1; i <= bisectCommits; i++ {
		msg := fmt.Sprintf("change %d", i)
		switch i {
		case 1:
			msg = "engine: first version"
		case slowCommit:
			msg = "engine: slower tokens"
			s := strings.Replace(string(src), "3 * time.Millisecond", slowPerToken, 1)
			if s == string(src) {
				t.Fatal("the engine's perToken line is not there to change")
			}
			src = []byte(s)
			write("main.go", s)
		default:
			write("NOTES", fmt.Sprintf("change %d\n", i))
		}
		git(t, repo, "add", "-A")
		git(t, repo, "-c", "user.name=test", "-c", "user.email=test@example.com", "commit", "-q", "-m", msg)
		shas = append(shas, git(t, repo, "rev-parse", "HEAD"))
	}
	return shas
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, b)
	}
	return strings.TrimSpace(string(b))
}
