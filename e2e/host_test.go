package e2e

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// spinner starts a CPU-bound process whose name (comm) is name: a copy of
// /bin/sh running a busy loop. It is killed when the test ends.
func spinner(t *testing.T, name string) *exec.Cmd {
	t.Helper()
	bin := filepath.Join(t.TempDir(), name)
	src, err := os.Open("/bin/sh")
	if err != nil {
		t.Skip("no /bin/sh to copy")
	}
	dst, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(dst, src)
	src.Close()
	dst.Close()
	cmd := exec.Command(bin, "-c", "while :; do :; done")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd
}

func hostScenario(extra string) string {
	return strings.Replace(metricsScenario("/completion", ""), "gates: {max_spread: 0, max_contended: 0}", extra, 1)
}

// A campaign started beside a busy process named like a compiler is held
// by the quiet gate, says what held it, and proceeds once it stops.
func TestQuietGateHoldsForACompiler(t *testing.T) {
	needEngine(t)
	cc := spinner(t, "cc1plus")
	go func() {
		time.Sleep(5 * time.Second)
		cc.Process.Kill()
	}()
	yaml := strings.Replace(hostScenario("gates: {max_spread: 0, max_contended: 0, quiet: {window: 2s, interval: 500ms, max_wait: 60s}}"),
		"rounds: 4, warmup: 0, cooldown: 0s", "rounds: 2, warmup: 0, cooldown: 0s", 1)
	code, rec, md, _ := runFile(t, yaml)
	if code != 0 && code != 2 {
		t.Fatalf("exit %d", code)
	}
	q := rec.Runs[0].Quiet
	if q == nil || q.EndedBy != "quiet" || q.WaitedS < 3 {
		t.Fatalf("first run's quiet wait %+v: want held for the spinner's 5 s, then quiet", q)
	}
	held := false
	for _, c := range q.Culprits {
		held = held || c.Name == "cc1plus"
	}
	if !held || !strings.Contains(md, "quiet wait") {
		t.Errorf("the wait does not name cc1plus: %+v", q.Culprits)
	}
	if later := rec.Runs[len(rec.Runs)-1].Quiet; later == nil || later.WaitedS > 4 {
		t.Errorf("a later run waited %+v after the spinner stopped", later)
	}
}

// A load on the other core during a real run marks the run contended and
// names the process that caused it.
func TestContendedRunNamesTheCulprit(t *testing.T) {
	needEngine(t)
	spinner(t, "hogspin")
	time.Sleep(500 * time.Millisecond)
	yaml := strings.Replace(hostScenario("gates: {max_spread: 0, max_contended: 0}"),
		"rounds: 4, warmup: 0, cooldown: 0s", "rounds: 2, warmup: 0, cooldown: 0s", 1)
	_, rec, _, _ := runFile(t, yaml)
	named := 0
	for i, r := range rec.Runs {
		if i < len(rec.Analysis.Marks) && rec.Analysis.Marks[i].Contended && r.Contention != nil && r.Contention.Culprit != nil && r.Contention.Culprit.Name == "hogspin" {
			named++
		}
	}
	if named == 0 {
		t.Errorf("no run marked contended with hogspin named; marks %+v", rec.Analysis.Marks)
	}
}
