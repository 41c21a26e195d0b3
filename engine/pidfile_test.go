//go:build unix

package engine

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/shirou/gopsutil/v4/process"
)

// sleeper starts a process that a planted pid file can name, and reports
// whether it still runs.
func sleeper(t *testing.T) (*exec.Cmd, func() bool) {
	t.Helper()
	cmd := exec.Command("sleep", "60")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-done })
	return cmd, func() bool {
		select {
		case <-done:
			return false
		case <-time.After(300 * time.Millisecond):
			return true
		}
	}
}

func writeRecord(t *testing.T, path string, r PIDRecord, mode os.FileMode) {
	t.Helper()
	b, _ := json.Marshal(r)
	if err := os.WriteFile(path, b, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

// A pid file others may write to, one that is a link, and one whose
// executable is not the process's are refused: the process they name is
// left running (issue 19 item 9). One written as the campaign writes it
// is reaped.
func TestReapStaleKillsOnlyWhatItStarted(t *testing.T) {
	dir := t.TempDir()
	deadOwner := PIDRecord{Owner: 1 << 30, OwnerStart: 1}

	cmd, alive := sleeper(t)
	pid := cmd.Process.Pid
	r := deadOwner
	r.PID, r.StartMS, r.Exe, r.Command = pid, startMS(pid), exeOf(pid), "sleep"
	if r.StartMS == 0 || r.Exe == "" {
		t.Skip("no process start time or executable on this system")
	}

	planted := filepath.Join(dir, "world-writable.json")
	writeRecord(t, planted, r, 0o666)
	if what, err := ReapStale(planted); err == nil || !strings.Contains(err.Error(), "writable by others") || what != "" {
		t.Errorf("world-writable pid file: %q, %v", what, err)
	}
	link := filepath.Join(dir, "link.json")
	good := filepath.Join(dir, "target.json")
	writeRecord(t, good, r, 0o600)
	if err := os.Symlink(good, link); err != nil {
		t.Fatal(err)
	}
	if _, err := ReapStale(link); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("linked pid file: %v", err)
	}
	wrongExe := r
	wrongExe.Exe = "/usr/bin/llama-server"
	other := filepath.Join(dir, "other-exe.json")
	writeRecord(t, other, wrongExe, 0o600)
	if what, err := ReapStale(other); err != nil || !strings.Contains(what, "left engine pid") {
		t.Errorf("another executable: %q, %v", what, err)
	}
	noExe := r
	noExe.Exe = ""
	old := filepath.Join(dir, "no-exe.json")
	writeRecord(t, old, noExe, 0o600)
	if _, err := ReapStale(old); err != nil {
		t.Errorf("no executable: %v", err)
	}
	if !alive() {
		t.Fatal("a refused pid file killed its process")
	}
	if what, err := ReapStale(good); err != nil || !strings.Contains(what, "killed engine pid") {
		t.Errorf("own pid file: %q, %v", what, err)
	}
	if alive() {
		t.Error("the campaign's own stale engine still runs")
	}
}

// writePIDFiles replaces a link planted at a pid file's path, never writing
// through it, and writes the file owner-only.
func TestWritePIDFilesNeverFollowLinks(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("precious"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "engine.pid.json")
	if err := os.Symlink(victim, p); err != nil {
		t.Fatal(err)
	}
	writePIDFiles([]string{p}, os.Getpid(), "x")
	if b, _ := os.ReadFile(victim); string(b) != "precious" {
		t.Errorf("wrote through the link: %q", b)
	}
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
		t.Errorf("pid file: %v, %v; want a regular owner-only file", fi.Mode(), err)
	}
}

// An engine whose leader died with decodebench (its parent-death signal
// reaches it alone) leaves what it started in its own group running: a
// worker holding the port. The resume's reaping kills the group's
// members that started after the engine. A real shell that backgrounds a
// sleep in its group and exits.
func TestReapStaleKillsTheDeadEnginesGroup(t *testing.T) {
	cmd := exec.Command("sh", "-c", "sleep 60 & echo $!; sleep 0.5")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := PIDRecord{PID: cmd.Process.Pid, StartMS: startMS(cmd.Process.Pid), Exe: exeOf(cmd.Process.Pid), Owner: 1 << 30, OwnerStart: 1, Command: "sh"}
	var child int
	if _, err := fmt.Fscan(out, &child); err != nil || child <= 0 {
		t.Fatalf("no child pid: %v", err)
	}
	t.Cleanup(func() { _ = syscall.Kill(child, syscall.SIGKILL) })
	_ = cmd.Wait() // the leader is gone; its child runs on in its group
	if r.StartMS == 0 || ended(child) {
		t.Skip("no process start time on this system, or the child did not start")
	}
	path := filepath.Join(t.TempDir(), "engine.pid.json")
	writeRecord(t, path, r, 0o600)
	what, err := ReapStale(path)
	if err != nil || !strings.Contains(what, "process(es) of pid") {
		t.Errorf("reaped %q, %v", what, err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !ended(child) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if !ended(child) {
		t.Error("the dead engine's child still runs")
	}
}

// ended reports whether a process no longer runs (exited, or a zombie
// waiting for its parent).
func ended(pid int) bool {
	p, err := process.NewProcess(int32(pid))
	if err != nil {
		return true
	}
	st, err := p.Status()
	return err != nil || len(st) > 0 && st[0] == process.Zombie
}
