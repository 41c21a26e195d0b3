package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startOrphan starts, without a parent-death signal, requests long enough
// that decodebench can be killed while the engine generates, and waits for
// the first measured run.
func startOrphan(t *testing.T) *proc {
	t.Setenv("DECODEBENCH_TEST_NO_PDEATHSIG", "1")
	p := start(t, scenario{Feature: "e2e-orphan", Rounds: 2, MaxTokens: 200, Ctx: 1024})
	p.waitFor(t, "run 1/4 classic: measuring", 60*time.Second)
	return p
}

// killed SIGKILLs decodebench and waits for it, without reading a record
// (a killed campaign writes none).
func (p *proc) killed(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// Only the process: an engine it left may hold its output open.
	p.cmd.Process.Wait()
}

// watchdogOf returns the pid of the watchdog decodebench pid started.
func watchdogOf(t *testing.T, pid int) int {
	t.Helper()
	entries, _ := os.ReadDir("/proc")
	want := []byte("__watchdog\x00" + strconv.Itoa(pid) + "\x00")
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && bytes.Contains(b, want) {
			n, _ := strconv.Atoi(e.Name())
			return n
		}
	}
	t.Fatalf("no watchdog process for decodebench pid %d", pid)
	return 0
}

// Without a parent-death signal (macOS; startOrphan turns it off with a
// test-only variable), a SIGKILLed decodebench leaves no engine: its watchdog ends
// the engine's group.
func TestOrphanWatchdogEndsEngine(t *testing.T) {
	p := startOrphan(t)
	enginePID(t, p.tag) // the engine runs
	watchdogOf(t, p.cmd.Process.Pid)
	p.killed(t)
	assertNoEngineLeft(t, p.tag)
}

// With the watchdog killed too, the engine is left running; `--resume`
// reaps it (its pid and start time match the data folder's record) before
// it continues.
func TestOrphanResumeReapsEngine(t *testing.T) {
	p := startOrphan(t)
	tg := p.tag
	eng := enginePID(t, tg)
	syscall.Kill(watchdogOf(t, p.cmd.Process.Pid), syscall.SIGKILL)
	p.killed(t)
	time.Sleep(500 * time.Millisecond)
	if left := processesWith(tg); len(left) != 1 || left[0] != strconv.Itoa(eng) {
		t.Fatalf("with decodebench and its watchdog killed, want the engine %d left, found %v", eng, left)
	}
	dirs, _ := filepath.Glob(filepath.Join(p.out, "data", "*"))
	if len(dirs) != 1 {
		t.Fatalf("data folders %v", dirs)
	}
	p2 := &proc{dir: p.dir, out: p.out, tag: tg, lines: make(chan string, 1000), done: make(chan struct{})}
	p2.launch(t, "", "run", "--resume", dirs[0])
	res := p2.wait(t) // asserts no engine is left at the end
	if !strings.Contains(res.stderr, "killed engine pid "+strconv.Itoa(eng)) {
		t.Errorf("resume did not say it reaped engine %d", eng)
	}
	if res.record == nil || len(res.record.Runs) != 4 {
		t.Errorf("resumed campaign did not finish")
	}
}
