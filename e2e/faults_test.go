package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/decodebench/decodebench/schema"
)

// Each fault ends with a clear message, the finished runs on disk, no
// engine left running (checked after every run by assertNoEngineLeft), and
// a record that says what happened.
//
// The faults that spend their time waiting (an engine that never starts,
// never becomes ready, or hangs until the request's timeout) and assert no
// timing or contention run in parallel with each other (idleParallel),
// after every other test of the package.

// idleParallel marks a test whose wall time is spent waiting, not
// computing, and that asserts nothing about timing, contention or a quiet
// host: it runs beside the package's other such tests. Never for a test
// that measures (a quiet gate or a contention check would see the others).
func idleParallel(t *testing.T) {
	t.Helper()
	t.Parallel()
}

func TestFaultBadModelPath(t *testing.T) {
	idleParallel(t)
	res := run(t, scenario{
		Feature:   "e2e-badmodel",
		Models:    "/nonexistent/models",
		DraftArgs: `"--spec-type", "none", "--spec-draft-n-max", "4"`,
		Counters:  "  - name: x\n    json: timings.draft_n\n    expect: {classic: \"== 0\", draft: \"> 0\"}\n",
	})
	if res.code != 1 || res.record == nil || res.record.Verdict != schema.Failed {
		t.Fatalf("exit %d, want 1 with a FAILED record", res.code)
	}
	for _, want := range []string{"engine exited while starting", "/nonexistent/models/target.gguf"} {
		if !strings.Contains(res.stderr, want) || !strings.Contains(res.md, want) {
			t.Errorf("message and record should contain %q", want)
		}
	}
}

func TestFaultNeverReady(t *testing.T) {
	idleParallel(t)
	res := run(t, scenario{
		Feature: "e2e-neverready",
		Ready:   "{path: /no-such-path, timeout: 3s}",
	})
	if res.code != 1 || res.record == nil || res.record.Verdict != schema.Failed {
		t.Fatalf("exit %d, want 1 with a FAILED record", res.code)
	}
	if want := "did not answer 200 within 3s"; !strings.Contains(res.md, want) {
		t.Errorf("record lacks %q", want)
	}
}

// SIGINT during a measured request: the engine's group is stopped, the
// record is INCOMPLETE with the run that finished, exit 130; then
// `run --resume` finishes the campaign into the same record.
func TestFaultInterruptAndResume(t *testing.T) {
	tg := tag(t)
	s := scenario{
		Feature:   "e2e-resume",
		Tag:       tg,
		Rounds:    2,
		MaxTokens: 400,
		Ctx:       1024,
	}
	p := start(t, s)
	p.waitFor(t, "run 2/4 draft: measuring", 120*time.Second) // run 1 decodes 400 tokens first: over a minute under load
	time.Sleep(300 * time.Millisecond)
	if err := p.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	res := p.wait(t)
	if res.code != 130 || res.record == nil || res.record.Verdict != schema.Incomplete {
		t.Fatalf("exit %d, want 130 with an INCOMPLETE record", res.code)
	}
	if len(res.record.Runs) != 1 || res.record.Runs[0].Seq != 1 {
		t.Fatalf("runs kept: %+v", res.record.Runs)
	}
	if !strings.Contains(res.stderr, "resume with  decodebench run --resume") {
		t.Error("no resume hint")
	}
	dataDir := filepath.Join(filepath.Dir(res.path), res.record.DataDir)

	// Resume: the same record, all four runs, the original order.
	p2 := &proc{dir: p.dir, out: p.out, tag: tg, lines: make(chan string, 1000), done: make(chan struct{})}
	p2.launch(t, "", "run", "--resume", dataDir)
	res2 := p2.wait(t)
	if res2.record == nil || res2.path != res.path {
		t.Fatalf("resumed record %q, want %q", res2.path, res.path)
	}
	rec := res2.record
	if rec.Verdict == schema.Incomplete || rec.Verdict == schema.Failed || len(rec.Runs) != 4 || len(rec.Method.Resumed) != 1 {
		t.Fatalf("after resume: verdict %s, %d runs, resumed %v", rec.Verdict, len(rec.Runs), rec.Method.Resumed)
	}
	if got := strings.Join(armsOf(rec.Runs), " "); got != "classic draft draft classic" {
		t.Errorf("order after resume %q", got)
	}
	if !strings.Contains(res2.md, "- Resumed at ") {
		t.Error("record does not say it was resumed")
	}
	// A changed scenario cannot resume into this record.
	scen := filepath.Join(dataDir, "scenario.yaml")
	b, _ := os.ReadFile(scen)
	os.WriteFile(filepath.Join(p.dir, "changed.yaml"), []byte(strings.Replace(string(b), "max_tokens: 400", "max_tokens: 300", 1)), 0o644)
	p3 := &proc{dir: p.dir, out: p.out, tag: tg, lines: make(chan string, 1000), done: make(chan struct{})}
	p3.launch(t, "", "run", "--resume", dataDir, filepath.Join(p.dir, "changed.yaml"))
	res3 := p3.wait(t)
	if res3.code != 1 || !strings.Contains(res3.stderr, "the scenario changed since the campaign started") {
		t.Errorf("resume with a changed scenario: exit %d", res3.code)
	}
}

// SIGTERM (a cancelled CI job) exits 143 with an INCOMPLETE record.
func TestFaultSIGTERM(t *testing.T) {
	p := start(t, scenario{
		Feature:   "e2e-sigterm",
		DraftArgs: `"--spec-type", "none", "--spec-draft-n-max", "4"`,
		Counters:  "  - name: x\n    json: timings.draft_n\n    expect: {classic: \"== 0\", draft: \"== 0\"}\n",
		Extra:     "allow_unverified: fault test\n",
		MaxTokens: 800,
		Ctx:       1024,
	})
	p.waitFor(t, "run 1/8 classic: measuring", 60*time.Second)
	p.cmd.Process.Signal(syscall.SIGTERM)
	res := p.wait(t)
	if res.code != 143 || res.record == nil || res.record.Verdict != schema.Incomplete {
		t.Fatalf("exit %d, want 143 with an INCOMPLETE record", res.code)
	}
	if !strings.Contains(res.md, "**Verdict: INCOMPLETE** (exit 143)") {
		t.Errorf("the record does not say exit 143:\n%.600s", res.md)
	}
}

// signalEngine sends sig to the engine once decodebench prints line, and
// waits for decodebench to end.
func (p *proc) signalEngine(t *testing.T, line string, sig syscall.Signal) result {
	t.Helper()
	p.waitFor(t, line, 60*time.Second)
	syscall.Kill(enginePID(t, p.tag), sig)
	return p.wait(t)
}

// An engine killed in the middle of the measured request makes that run
// fail with the reason; under on_failure: continue the campaign goes on and
// the record keeps every other run.
func TestFaultEngineKilledMidRun(t *testing.T) {
	res := start(t, scenario{
		Feature:   "e2e-killed",
		Rounds:    2,
		MaxTokens: 400,
		Ctx:       1024,
		Extra:     "on_failure: continue\n",
	}).signalEngine(t, "run 1/4 classic: measuring", syscall.SIGKILL)
	if res.record == nil || len(res.record.Runs) != 4 {
		t.Fatalf("exit %d, runs %d; want all 4 runs recorded", res.code, len(res.record.Runs))
	}
	r1 := res.record.Runs[0]
	if r1.OK() || !strings.Contains(r1.Error, "killed by signal: killed") && !strings.Contains(r1.Error, "SIGKILL") && !strings.Contains(r1.Error, "killed") {
		t.Errorf("run 1 error %q", r1.Error)
	}
	for _, r := range res.record.Runs[1:] {
		if !r.OK() {
			t.Errorf("run %d failed: %s", r.Seq, r.Error)
		}
	}
	if !strings.Contains(res.md, "1 run(s) failed and are excluded from the statistics (on_failure: continue)") {
		t.Error("record does not say a run failed")
	}
}

// An engine that hangs mid-request (stopped with SIGSTOP) hits the request
// timeout; the run fails with that reason and the stopped engine is still
// killed.
func TestFaultEngineHangs(t *testing.T) {
	idleParallel(t)
	res := start(t, scenario{
		Feature:   "e2e-hang",
		MaxTokens: 800,
		Ctx:       1024,
		Request:   "    timeout: 3s\n",
	}).signalEngine(t, "run 1/8 classic: measuring", syscall.SIGSTOP)
	if res.code != 1 || res.record == nil || res.record.Verdict != schema.Failed {
		t.Fatalf("exit %d, want 1 with a FAILED record", res.code)
	}
	if !strings.Contains(res.record.Runs[0].Error, "timed out after 3s") {
		t.Errorf("run 1 error %q", res.record.Runs[0].Error)
	}
}
