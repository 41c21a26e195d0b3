package bisect

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/decodebench/decodebench/internal/execfile"
	"github.com/decodebench/decodebench/machine"
	"github.com/decodebench/decodebench/redact"
)

// A build that floods its output keeps only its head and its tail, in
// memory and in its log, which says how much was cut between them; its
// last line (where a failed build says why) is kept, and the build still
// counts by its exit status.
func TestBuildOutputIsBounded(t *testing.T) {
	dataDir := t.TempDir()
	res, err := build(context.Background(), dataDir, t.TempDir(), "yes 'cc -c ggml.c' | head -c 67108864; echo; echo 'error: the last line'; exit 0", "builds/flood.log", &redact.Redactor{}, 0)
	if err != nil || !res.OK {
		t.Fatalf("build = %+v, %v", res, err)
	}
	b, err := os.ReadFile(filepath.Join(dataDir, "builds", "flood.log"))
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > BuildLogHeadBytes+BuildLogTailBytes+1024 {
		t.Errorf("the build log is %d bytes, past its head and tail", len(b))
	}
	if !strings.Contains(string(b), "bytes of build output were cut here") {
		t.Errorf("the log does not say what was cut")
	}
	if !strings.HasSuffix(string(b), "error: the last line\n") || !strings.HasPrefix(string(b), "cc -c ggml.c\n") {
		t.Errorf("the log lost its head or its tail: %q … %q", b[:min(len(b), 40)], b[max(0, len(b)-40):])
	}
}

// git's output is bounded as every tool's: a failure quotes one short
// line of its complaint however much it prints, and output past
// machine.MaxToolOutput is an error naming the bound.
func TestGitOutputIsBounded(t *testing.T) {
	dir := t.TempDir()
	script := "#!/bin/sh\nPATH='" + os.Getenv("PATH") + "'\n" +
		"case \" $* \" in *\" log \"*) exec yes ;; *\" config \"*) printf 'decodebench.gitguard\\0'; exit 0 ;; esac\n" +
		"head -c 67108864 /dev/zero | tr '\\0' x >&2; exit 128\n"
	if err := execfile.Write(filepath.Join(dir, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	_, err := git(context.Background(), t.TempDir(), "rev-parse", "HEAD")
	if err == nil || !strings.Contains(err.Error(), "exit status 128: xxx") {
		t.Fatalf("git = %.300v, want its exit status", err)
	}
	if len(err.Error()) > 512 {
		t.Errorf("the error quotes %d bytes of git's output", len(err.Error()))
	}
	_, err = git(context.Background(), t.TempDir(), "log")
	if !errors.Is(err, machine.ErrToolOutputTooLarge) || len(err.Error()) > 512 {
		t.Errorf("git log flooding = %.300v, want ErrToolOutputTooLarge", err)
	}
}

// pidGone waits up to five seconds for the process named in file to be
// gone (killed and reaped).
func pidGone(t *testing.T, file string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 1 {
		t.Fatalf("%s: pid %q", file, b)
	}
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
			return
		}
	}
	t.Errorf("process %d (%s) still runs", pid, filepath.Base(file))
	_ = syscall.Kill(pid, syscall.SIGKILL)
}

// A build still running at its timeout is killed with every process it
// started, a background child and (where there is setsid) one that left
// its process group and session too; the build failed, and its log says
// why (issue 31 item 4).
func TestBuildTimeoutKillsItsTree(t *testing.T) {
	dataDir, wt := t.TempDir(), t.TempDir()
	cmd := "sleep 300 & echo $! > child.pid; "
	daemon := false
	if _, err := exec.LookPath("setsid"); err == nil && runtime.GOOS == "linux" {
		cmd += "setsid sleep 300 & echo $! > daemon.pid; "
		daemon = true
	}
	start := time.Now()
	res, err := build(context.Background(), dataDir, wt, cmd+"sleep 300", "builds/slow.log", &redact.Redactor{}, 2*time.Second)
	if !errors.Is(err, errBuildTimeout) || res.OK || res.ExitCode != -1 {
		t.Fatalf("build = %+v, %v; want a failed build and errBuildTimeout", res, err)
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("the build was stopped after %s, for a timeout of 2s", d)
	}
	pidGone(t, filepath.Join(wt, "child.pid"))
	if daemon {
		pidGone(t, filepath.Join(wt, "daemon.pid"))
	}
	log, err := os.ReadFile(filepath.Join(dataDir, "builds", "slow.log"))
	if err != nil || !strings.Contains(string(log), "the build did not finish within 2s") {
		t.Errorf("the log %q (%v) does not say the build was killed at its timeout", log, err)
	}
}

// A build that exits well but leaves a background child holding its
// output open has succeeded: it is not held until a delay runs out, nor
// turned into an error, and the child is killed (issue 31 item 4: "WaitDelay
// expired" after a successful build).
func TestBuildLeftoverHoldingOutputDoesNotFailIt(t *testing.T) {
	dataDir, wt := t.TempDir(), t.TempDir()
	start := time.Now()
	res, err := build(context.Background(), dataDir, wt, "(sleep 300; echo late) & echo $! > child.pid; echo built", "builds/bg.log", &redact.Redactor{}, time.Minute)
	if err != nil || !res.OK {
		t.Fatalf("build = %+v, %v; want a successful build", res, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the build took %s: held by its background child", d)
	}
	pidGone(t, filepath.Join(wt, "child.pid"))
	log, err := os.ReadFile(filepath.Join(dataDir, "builds", "bg.log"))
	if err != nil || !strings.HasPrefix(string(log), "built\n") || !strings.Contains(string(log), "the build left running") {
		t.Errorf("build log %q (%v)", log, err)
	}
}
