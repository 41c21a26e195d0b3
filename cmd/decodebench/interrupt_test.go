package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// An interrupt delivered twice at once is one interrupt: GNU timeout sends
// its signal to the command and to its own process group, which holds the
// command too, and the second copy stopped the campaign at once, without
// its INCOMPLETE record. A real campaign of a command engine (a shell
// that sleeps and echoes) gets two SIGINTs back to back after its second
// run; it writes the record and exits 130. The same with SIGTERM exits
// 143 and with SIGHUP (a closed terminal) 129, and its record says so:
// SIGHUP had killed the campaign without a record, the engine's workers
// left running.
func TestInterruptDeliveredTwiceKeepsTheRecord(t *testing.T) {
	childMain()
	for _, c := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}, {syscall.SIGHUP, 129}} {
		t.Run(c.sig.String(), func(t *testing.T) { interruptTwice(t, c.sig, c.code) })
	}
}

// twiceScenario is a campaign of a command engine (a shell that sleeps
// and echoes) of 20 rounds of two arms.
const twiceScenario = `feature: twice
engine:
  kind: command
  command: ["sh", "-c", "sleep 0.3; echo \"arm=$1\"; echo \": eval time = 10 ms / 64 runs, 100.5 tokens per second\"", "sh"]
  request: {timeout: 20s}
  output:
    metrics:
      decode_tok_s: ': +eval time = .*, +([0-9.]+) tokens per second'
    tokens: ': +eval time = .* / +([0-9]+) runs'
arms:
  - name: a
    args: ["1"]
  - name: b
    args: ["2"]
baseline: a
counters:
  - name: armno
    log: 'arm=([0-9]+)'
    expect: {a: "== 1", b: "== 2"}
schedule: {rounds: 20, warmup: 0, cooldown: 0s}
gates: {max_contended: 0}
unmeasured:
  - Prefill.
`

// campaignUntil starts `decodebench run FLAGS` of twiceScenario in a child,
// into dir/out, and reads its stderr until a line holds until: the
// command, the rest of its stderr, what was read, and the scenario.
func campaignUntil(t *testing.T, dir, flags, until string) (*exec.Cmd, *bufio.Scanner, *strings.Builder, string) {
	t.Helper()
	cmd, _, lines, log, scen := campaignPipeUntil(t, dir, flags, until)
	return cmd, lines, log, scen
}

// campaignPipeUntil is campaignUntil that also gives the stderr pipe.
func campaignPipeUntil(t *testing.T, dir, flags, until string) (*exec.Cmd, io.ReadCloser, *bufio.Scanner, *strings.Builder, string) {
	t.Helper()
	scen := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(scen, []byte(twiceScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := childCommand(t, "run "+flags+" --wait-lock 2m --out "+filepath.Join(dir, "out")+" --hw fake --date 2026-01-01 "+scen)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	log := &strings.Builder{}
	lines := bufio.NewScanner(stderr)
	for lines.Scan() {
		log.WriteString(lines.Text() + "\n")
		if strings.Contains(lines.Text(), until) {
			break
		}
	}
	return cmd, stderr, lines, log, scen
}

func interruptTwice(t *testing.T, sig syscall.Signal, code int) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	cmd, lines, log, _ := campaignUntil(t, dir, "--yes", "run 2/40 b: decode_tok_s")
	// Two signals sent at once are often merged by the kernel into one;
	// 10 ms apart, the first has been taken when the second comes.
	t0 := time.Now()
	_ = syscall.Kill(cmd.Process.Pid, sig)
	time.Sleep(10 * time.Millisecond)
	_ = syscall.Kill(cmd.Process.Pid, sig)
	gap := time.Since(t0)
	for lines.Scan() {
		log.WriteString(lines.Text() + "\n")
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(time.Minute):
		_ = cmd.Process.Kill()
		t.Fatalf("the campaign did not stop:\n%s", log.String())
	}
	if gap >= sameBurst {
		// A host so loaded that 10 ms took 250: the second was a second
		// interrupt, and stopping at once without a record was right.
		t.Logf("the second signal came %v after the first, past %v", gap, sameBurst)
		return
	}
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != code {
		t.Errorf("exit %v, want %d\n%s", err, code, log.String())
	}
	b, err := os.ReadFile(filepath.Join(out, "twice-fake-2026-01-01.md"))
	if want := fmt.Sprintf("**Verdict: INCOMPLETE** (exit %d)", code); err != nil || !strings.Contains(string(b), want) {
		t.Errorf("no record saying %q (%v):\n%s", want, err, log.String())
	}
}

// A campaign started with --set resumes with its scenario named as it
// does without: the overrides are the campaign's (the resume refused the
// scenario as changed). Interrupted after its second run of six, it is
// resumed and finishes with every run.
func TestResumeNamedScenarioKeepsOverrides(t *testing.T) {
	childMain()
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	scen := interruptedCampaign(t, dir, "--set schedule.rounds=3")
	data := filepath.Join(out, "data", "twice-fake-2026-01-01")
	b, err := childCommand(t, "run --wait-lock 2m --resume "+data+" "+scen).CombinedOutput()
	if err != nil {
		t.Fatalf("resume: %v\n%s", err, b)
	}
	rec, err := os.ReadFile(filepath.Join(out, "twice-fake-2026-01-01.md"))
	if err != nil || !strings.Contains(string(rec), "**Verdict: VALID**") || !strings.Contains(string(rec), "- Resumed at ") {
		t.Errorf("no resumed VALID record (%v):\n%s", err, b)
	}
}

// A console that went away is not the campaign's end: with its stderr a
// pipe whose reader closed after the second run (tee or head gone, a
// Ctrl-C under `| tee`), Go's default SIGPIPE killed decodebench on its
// next line, without a record, the engine's workers left running. It now
// runs on and writes its record (exit 0).
func TestConsoleGoneKeepsTheCampaign(t *testing.T) {
	childMain()
	dir := t.TempDir()
	cmd, stderr, _, log, _ := campaignPipeUntil(t, dir, "--set schedule.rounds=3", "run 2/6 b: decode_tok_s")
	_ = stderr.Close() // the reader went away
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("exit %v, want 0\n%s", err, log.String())
		}
	case <-time.After(2 * time.Minute):
		_ = cmd.Process.Kill()
		t.Fatalf("the campaign did not end:\n%s", log.String())
	}
	b, err := os.ReadFile(filepath.Join(dir, "out", "twice-fake-2026-01-01.md"))
	if err != nil || !strings.Contains(string(b), "**Verdict: VALID**") {
		t.Errorf("no VALID record (%v):\n%s", err, log.String())
	}
}

// SIGQUIT (Ctrl-\) keeps its stack dump but ends the engines first and
// leaves the journal to resume (Go's default dumped and died, the
// engine left running): exit 131, and a resume finishes the campaign.
func TestQuitEndsTheEnginesAndResumes(t *testing.T) {
	childMain()
	dir := t.TempDir()
	cmd, lines, log, scen := campaignUntil(t, dir, "--set schedule.rounds=3", "run 2/6 b: decode_tok_s")
	_ = syscall.Kill(cmd.Process.Pid, syscall.SIGQUIT)
	for lines.Scan() {
		log.WriteString(lines.Text() + "\n")
	}
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 131 || !strings.Contains(log.String(), "SIGQUIT: engines killed") || !strings.Contains(log.String(), "goroutine ") {
		t.Fatalf("exit %v, want 131 with the engines killed and the goroutines:\n%.2000s", err, log.String())
	}
	data := filepath.Join(dir, "out", "data", "twice-fake-2026-01-01")
	b, err := childCommand(t, "run --wait-lock 2m --resume "+data+" "+scen).CombinedOutput()
	if err != nil {
		t.Fatalf("resume: %v\n%s", err, b)
	}
	rec, err := os.ReadFile(filepath.Join(dir, "out", "twice-fake-2026-01-01.md"))
	if err != nil || !strings.Contains(string(rec), "**Verdict: VALID**") {
		t.Errorf("no VALID record after the resume (%v):\n%s", err, b)
	}
}

// A resume that reads the scenario from another file than the campaign
// started from (the file moved and named anew, or gone, so that the
// resume reads the data folder's copy) writes a record that passes check:
// the record names the scenario the campaign started from. A resume of
// the finished campaign is refused and writes nothing: it rewrote the
// record, counting the time since as an interruption.
func TestResumeFromAnotherCopyPassesCheck(t *testing.T) {
	childMain()
	for _, moved := range []bool{true, false} {
		dir := t.TempDir()
		out := filepath.Join(dir, "out")
		scen := interruptedCampaign(t, dir, "--set schedule.rounds=3")
		data := filepath.Join(out, "data", "twice-fake-2026-01-01")
		args := "run --wait-lock 2m --resume " + data
		if moved {
			other := filepath.Join(dir, "moved.yaml")
			if err := os.Rename(scen, other); err != nil {
				t.Fatal(err)
			}
			args += " " + other
		} else {
			if err := os.Remove(scen); err != nil {
				t.Fatal(err)
			}
			args += " --yes" // the data folder's copy is run only with consent
		}
		// 0 or 2: the record is written (a contended host makes it
		// INCONCLUSIVE).
		if b, err := childCommand(t, args).CombinedOutput(); err != nil && !strings.Contains(err.Error(), "exit status 2") {
			t.Fatalf("moved %v: resume: %v\n%s", moved, err, b)
		}
		rec := filepath.Join(out, "twice-fake-2026-01-01.md")
		if b, err := childCommand(t, "check --no-cache "+rec).CombinedOutput(); err != nil {
			t.Errorf("moved %v: the resumed record fails check: %v\n%s", moved, err, b)
		}
		before, _ := os.ReadFile(rec)
		b, err := childCommand(t, args).CombinedOutput()
		if err == nil || !strings.Contains(string(b), "nothing to resume") {
			t.Errorf("moved %v: a resume of the finished campaign: %v\n%s", moved, err, b)
		}
		if after, _ := os.ReadFile(rec); !bytes.Equal(before, after) {
			t.Errorf("moved %v: a resume of the finished campaign rewrote its record", moved)
		}
	}
}

// An interrupted campaign whose gate failed under on_gate_failure:
// continue is REJECTED, not INCOMPLETE: its resume goes on (it was refused
// as finished).
func TestResumeAnInterruptedRejectedCampaign(t *testing.T) {
	childMain()
	dir := t.TempDir()
	interruptedCampaign(t, dir, "--set schedule.rounds=3 --set counters[0].expect.b===3 --set on_gate_failure=continue")
	rec := filepath.Join(dir, "out", "twice-fake-2026-01-01.md")
	if b, err := os.ReadFile(rec); err != nil || !strings.Contains(string(b), "**Verdict: REJECTED**") {
		t.Fatalf("no interrupted REJECTED record (%v)", err)
	}
	b, _ := childCommand(t, "run --wait-lock 2m --resume "+filepath.Join(dir, "out", "data", "twice-fake-2026-01-01")).CombinedOutput()
	if strings.Contains(string(b), "nothing to resume") || !strings.Contains(string(b), "run 6/6") {
		t.Errorf("the resume did not run the rest:\n%s", b)
	}
}

// interruptedCampaign runs twiceScenario with flags into dir/out and
// interrupts it (SIGINT) after its second run of b, as a user's Ctrl-C
// would: the scenario's path.
func interruptedCampaign(t *testing.T, dir, flags string) string {
	t.Helper()
	cmd, lines, log, scen := campaignUntil(t, dir, flags, "run 2/6 b: decode_tok_s")
	_ = syscall.Kill(cmd.Process.Pid, syscall.SIGINT)
	for lines.Scan() {
		log.WriteString(lines.Text() + "\n")
	}
	if err := cmd.Wait(); err == nil {
		t.Fatalf("the campaign was not interrupted:\n%s", log.String())
	}
	return scen
}
