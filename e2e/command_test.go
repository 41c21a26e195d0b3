package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// sibling returns a llama.cpp tool installed beside llama-server.
func sibling(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join(filepath.Dir(llamaServer), name)
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s not installed beside llama-server: %v", name, err)
		}
		t.Skipf("%s not installed beside llama-server", name)
	}
	return p
}

// runFile runs decodebench on a scenario file with extra environment and
// returns the exit code and the record, loaded with its runs.
func runFile(t *testing.T, yaml string, env ...string) (int, *schema.Record, string, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.yaml")
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return runScenario(t, path, nil, env...)
}

// runScenario runs decodebench on a scenario file or shipped name with
// extra flags and environment, and checks the one record it writes.
func runScenario(t *testing.T, scenario string, flags []string, env ...string) (int, *schema.Record, string, string) {
	t.Helper()
	return runScenarioTo(t, filepath.Join(t.TempDir(), "rec"), scenario, flags, env...)
}

// runScenarioTo is runScenario writing into the folder out.
func runScenarioTo(t *testing.T, out, scenario string, flags []string, env ...string) (int, *schema.Record, string, string) {
	t.Helper()
	needEngine(t)
	cmd := exec.Command(binary, append([]string{"run", scenario, "--out", out, "--hw", "test", "--date", "2026-01-02"}, flags...)...)
	cmd.Env = append(append(os.Environ(), "MODEL_DIR="+modelDir), env...)
	b, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	t.Logf("exit %d\n%s", code, b)
	recs, _ := filepath.Glob(filepath.Join(out, "*.md"))
	if len(recs) != 1 {
		t.Fatalf("%d records written", len(recs))
	}
	rec, err := recorder.Load(recs[0])
	if err != nil {
		t.Fatal(err)
	}
	check := exec.Command(binary, "check", recs[0])
	if b, err := check.CombinedOutput(); err != nil {
		t.Errorf("check: %v\n%s", err, b)
	}
	md, _ := os.ReadFile(recs[0])
	return code, rec, string(md), string(b)
}

// finished returns the runs that count: llama.cpp's CLIs sometimes exit
// before their log thread has written the last lines (the timing line, or
// a count such as n_drafted after it), which fails the run rather than
// reading 0, and which the shipped scenarios retry (on_failure: retry:2);
// such an attempt stays in the record as failed, and is left out here only
// when a later attempt of the same slot finished. Any other failure is the
// test's to judge.
func finished(t *testing.T, rec *schema.Record) []schema.Run {
	t.Helper()
	var done []schema.Run
	for i, r := range rec.Runs {
		if !r.OK() && strings.Contains(r.Error, "the command's output has no match for") && retriedLater(rec.Runs[i+1:], r) {
			t.Logf("run %d (%s) attempt %d lost output lines and was retried: %s", r.Seq, r.Arm, r.Attempt, r.Error)
			continue
		}
		done = append(done, r)
	}
	return done
}

func retriedLater(later []schema.Run, r schema.Run) bool {
	for _, l := range later {
		if l.Seq == r.Seq && l.Attempt > r.Attempt {
			return true
		}
	}
	return false
}

// cliScenario reads a shipped scenario, changed by the old, new pairs, and
// the variable env that points it at the llama.cpp tool beside llama-server.
func cliScenario(t *testing.T, file, tool, env string, oldnew ...string) (yaml, toolEnv string) {
	t.Helper()
	needEngine(t)
	src, err := os.ReadFile("../scenarios/" + file)
	if err != nil {
		t.Fatal(err)
	}
	// A shipped scenario rewritten since this test was: fail here rather
	// than run a scenario the test did not shorten.
	for i := 0; i+1 < len(oldnew); i += 2 {
		if !strings.Contains(string(src), oldnew[i]) {
			t.Fatalf("scenarios/%s no longer contains %q", file, oldnew[i])
		}
	}
	return strings.NewReplacer(oldnew...).Replace(string(src)), env + "=" + sibling(t, tool)
}

// The command engine runs llama-completion once per measured run: the
// decode rate comes from its own "eval time" line, the thread count that
// tells the arms apart from its system_info line, the text from stdout.
func TestCommandEngineLlamaCompletion(t *testing.T) {
	yaml, bin := cliScenario(t, "llamacpp-cli.yaml", "llama-completion", "LLAMA_COMPLETION",
		`"-n", "64"`, `"-n", "16"`, "rounds: {min: 5, max: 20, max_time: 10m, every: 5}, warmup: 1, cooldown: 1s", "rounds: 4, warmup: 1, cooldown: 0s",
		"gates:\n  max_spread: 50%\n  max_contended: 50%\n", "exactness: {compare: [t1], on_mismatch: report}\ngates:\n  max_spread: 0\n  max_contended: 0\n",
		"quiet: {window: 5s, interval: 1s, max_wait: 1m, on_busy: wait}", "quiet: {window: 500ms, interval: 500ms, max_wait: 10s, on_busy: wait}")
	code, rec, md, _ := runFile(t, yaml, bin)
	if code != 0 && code != 2 {
		t.Fatalf("exit %d", code)
	}
	done := finished(t, rec)
	if len(done) != 8 {
		t.Fatalf("%d runs finished, %d in all", len(done), len(rec.Runs))
	}
	for _, r := range done {
		want := map[string]float64{"t2": 2, "t1": 1}[r.Arm]
		if !r.OK() || r.Metrics["decode_tok_s"] <= 0 || r.Counters["threads"].Value != want || r.Tokens != 15 || r.Output == "" {
			t.Errorf("run %d (%s): error %q, metrics %v, counters %v, tokens %d, output %q", r.Seq, r.Arm, r.Error, r.Metrics, r.Counters, r.Tokens, r.Output)
		}
	}
	if id := rec.Analysis.Identity; id == nil || len(id.Arms) != 1 || id.Arms[0].Runs != 4 {
		t.Errorf("identity %+v", id)
	}
	if !strings.Contains(md, "## Output identity") || !strings.Contains(md, "threads") {
		t.Error("record lacks the identity section or the counter")
	}
}

// llama-speculative through the command engine: its printed n_draft tells
// the arms apart, its drafted and accepted counts are recorded, a wrong
// expectation REJECTS.
func TestCommandEngineLlamaSpeculative(t *testing.T) {
	yaml, bin := cliScenario(t, "llamacpp-speculative-cli.yaml", "llama-speculative", "LLAMA_SPECULATIVE",
		`"-n", "64"`, `"-n", "16"`, "rounds: {min: 5, max: 20, max_time: 10m, every: 5}, warmup: 0, cooldown: 1s", "rounds: 2, warmup: 0, cooldown: 0s",
		"gates:\n  max_spread: 50%\n  max_contended: 50%\n", "gates:\n  max_spread: 0\n  max_contended: 0\n",
		"quiet: {window: 5s, interval: 1s, max_wait: 1m, on_busy: wait}", "quiet: {window: 500ms, interval: 500ms, max_wait: 10s, on_busy: wait}")
	code, rec, _, _ := runFile(t, yaml, bin)
	if code != 0 && code != 2 {
		t.Fatalf("exit %d", code)
	}
	done := finished(t, rec)
	if len(done) != 4 {
		t.Fatalf("%d runs finished, %d in all", len(done), len(rec.Runs))
	}
	for _, r := range done {
		want := map[string]float64{"draft3": 3, "draft8": 8}[r.Arm]
		if !r.OK() || r.Counters["draft_size"].Value != want || r.Counters["drafted"].Value <= 0 || r.Metrics["decode_tok_s"] <= 0 {
			t.Errorf("run %d (%s): error %q, counters %v, metrics %v", r.Seq, r.Arm, r.Error, r.Counters, r.Metrics)
		}
	}
	wrong := strings.Replace(yaml, `expect: {draft3: "== 3", draft8: "== 8"}`, `expect: {draft3: "== 3", draft8: "== 9"}`, 1)
	code, rec, _, _ = runFile(t, wrong, bin)
	if code != 3 || rec.Verdict != schema.Rejected {
		t.Errorf("a wrong draft size expectation: exit %d, verdict %s", code, rec.Verdict)
	}
}
