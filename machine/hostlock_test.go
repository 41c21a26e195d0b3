//go:build unix

package machine

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHostLockHelper is the other campaign: run by TestHostLockTwoProcesses
// in a child process, it takes the lock, says so, and holds it until its
// standard input closes.
func TestHostLockHelper(t *testing.T) {
	if os.Getenv("DECODEBENCH_LOCK_HELPER") != "1" {
		t.Skip("helper process")
	}
	l, err := AcquireHostLock(context.Background(), 0, HolderInfo{PID: os.Getpid(), Start: time.Now(), Scenario: "helper-scenario"})
	if err != nil {
		os.Stdout.WriteString("error " + err.Error() + "\n")
		os.Exit(1)
	}
	os.Stdout.WriteString("locked\n")
	bufio.NewReader(os.Stdin).ReadString('\n')
	l.Release()
	os.Exit(0)
}

func TestHostLockTwoProcesses(t *testing.T) {
	t.Setenv("DECODEBENCH_LOCK", filepath.Join(t.TempDir(), "host.lock"))
	cmd := exec.Command(os.Args[0], "-test.run=^TestHostLockHelper$")
	cmd.Env = append(os.Environ(), "DECODEBENCH_LOCK_HELPER=1")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	if line != "locked\n" {
		t.Fatalf("helper: %q", line)
	}

	ctx := context.Background()
	me := HolderInfo{PID: os.Getpid(), Start: time.Now(), Scenario: "mine"}
	// Without waiting: refused, naming the holder.
	_, err := AcquireHostLock(ctx, 0, me)
	var held *LockHeldError
	if !errors.As(err, &held) || held.Holder.PID != cmd.Process.Pid || held.Holder.Scenario != "helper-scenario" {
		t.Fatalf("got %v, want a LockHeldError naming pid %d", err, cmd.Process.Pid)
	}
	if !strings.Contains(err.Error(), "helper-scenario") {
		t.Errorf("message does not name the scenario: %v", err)
	}
	// Waiting briefly: still refused, after the wait.
	start := time.Now()
	if _, err := AcquireHostLock(ctx, 300*time.Millisecond, me); !errors.As(err, &held) || time.Since(start) < 300*time.Millisecond {
		t.Errorf("short wait: %v after %v", err, time.Since(start))
	}
	// Waiting long enough: the holder ends and the lock is ours.
	go func() { time.Sleep(300 * time.Millisecond); stdin.Close() }()
	l, err := AcquireHostLock(ctx, 5*time.Second, me)
	if err != nil {
		t.Fatalf("after the holder ended: %v", err)
	}
	defer l.Release()
	cmd.Wait()
	if h := readHolder(l.f); h.PID != os.Getpid() || h.Scenario != "mine" {
		t.Errorf("lock file holds %+v", h)
	}
}

// A holder that dies without releasing leaves no lock behind, and two
// descriptors in one process exclude each other.
func TestHostLockSameProcessAndRelease(t *testing.T) {
	t.Setenv("DECODEBENCH_LOCK", filepath.Join(t.TempDir(), "host.lock"))
	ctx := context.Background()
	a, err := AcquireHostLock(ctx, 0, HolderInfo{PID: 1, Scenario: "a"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := AcquireHostLock(ctx, 0, HolderInfo{PID: 2, Scenario: "b"}); err == nil {
		t.Fatal("second lock taken while the first is held")
	}
	cctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	if _, err := AcquireHostLock(cctx, time.Minute, HolderInfo{PID: 2}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("canceled wait: %v", err)
	}
	if err := a.Release(); err != nil {
		t.Fatal(err)
	}
	b, err := AcquireHostLock(ctx, 0, HolderInfo{PID: 2, Scenario: "b"})
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	b.Release()
}

// The host lock is one path for every shell of a user: $XDG_RUNTIME_DIR
// and $TMPDIR (set in an ssh session, not in a cron job or a runner's
// service) do not move it; DECODEBENCH_LOCK does.
func TestLockPath(t *testing.T) {
	want := fmt.Sprintf("/tmp/decodebench-%d/decodebench.lock", os.Geteuid())
	for _, env := range [][2]string{{"/run/user/1000", "/var/tmp/x"}, {"", ""}, {"run", "."}} {
		t.Setenv("DECODEBENCH_LOCK", "")
		t.Setenv("XDG_RUNTIME_DIR", env[0])
		t.Setenv("TMPDIR", env[1])
		if p := LockPath(); p != want {
			t.Errorf("XDG_RUNTIME_DIR=%q TMPDIR=%q: LockPath = %q, want %q", env[0], env[1], p, want)
		}
	}
	t.Setenv("DECODEBENCH_LOCK", "/x/y.lock")
	if p := LockPath(); p != "/x/y.lock" {
		t.Errorf("LockPath = %q", p)
	}
}

// A wait is never silent: the waiter hears who holds the lock when it
// starts to wait and every LockNotifyEvery after, and nothing once the
// lock is its own.
func TestHostLockWaitSaysWhoHoldsIt(t *testing.T) {
	t.Setenv("DECODEBENCH_LOCK", filepath.Join(t.TempDir(), "host.lock"))
	defer func(d time.Duration) { LockNotifyEvery = d }(LockNotifyEvery)
	LockNotifyEvery = 300 * time.Millisecond
	ctx := context.Background()
	a, err := AcquireHostLock(ctx, 0, HolderInfo{PID: 4242, Scenario: "holder.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	var told []*LockHeldError
	_, err = WaitHostLock(ctx, time.Second, HolderInfo{PID: 2}, func(e *LockHeldError) { told = append(told, e) })
	if err == nil {
		t.Fatal("lock taken while held")
	}
	// At 0, 0.3, 0.6 and 0.9 s, give or take a poll on a loaded host.
	if len(told) < 3 || len(told) > 4 {
		t.Fatalf("told %d times in a 1s wait, want 3 or 4", len(told))
	}
	if told[0].Holder.PID != 4242 || told[0].Holder.Scenario != "holder.yaml" || told[0].Waited > 250*time.Millisecond {
		t.Errorf("first notice %+v", told[0])
	}
	for i := 1; i < len(told); i++ {
		if gap := told[i].Waited - told[i-1].Waited; gap < LockNotifyEvery {
			t.Errorf("notices %d and %d only %v apart", i-1, i, gap)
		}
	}
	a.Release()
	told = nil
	b, err := WaitHostLock(ctx, time.Second, HolderInfo{PID: 2}, func(e *LockHeldError) { told = append(told, e) })
	if err != nil || len(told) != 0 {
		t.Errorf("free lock: %v, told %d times", err, len(told))
	}
	b.Release()
}

// The lock lives in an owner-only folder of the shared temporary
// directory; a folder pre-created by someone else (here:
// writable by others, or a link) and a planted link as the lock file are
// refused (issue 19 item 9).
func TestLockDirRefusesPlanted(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("DECODEBENCH_LOCK", "")
	defer func(r string) { lockRoot = r }(lockRoot)
	lockRoot = tmp
	dir := LockDir()
	if filepath.Dir(dir) != tmp || !strings.HasPrefix(filepath.Base(dir), "decodebench-") {
		t.Fatalf("LockDir = %s", dir)
	}
	l, err := AcquireHostLock(context.Background(), 0, HolderInfo{PID: os.Getpid()})
	if err != nil {
		t.Fatal(err)
	}
	l.Release()
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("lock folder %v, %v; want 0700", fi.Mode(), err)
	}
	if fi, err := os.Stat(LockPath()); err != nil || fi.Mode().Perm()&0o077 != 0 {
		t.Fatalf("lock file %v, %v; want owner-only", fi.Mode(), err)
	}

	// A planted link as the lock file.
	victim := filepath.Join(tmp, "victim")
	if err := os.WriteFile(victim, []byte("precious"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Remove(LockPath())
	if err := os.Symlink(victim, LockPath()); err != nil {
		t.Fatal(err)
	}
	if _, err := AcquireHostLock(context.Background(), 0, HolderInfo{PID: os.Getpid()}); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("planted lock link: %v", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "precious" {
		t.Errorf("wrote through the link: %q", b)
	}
	// A folder others may write to.
	os.RemoveAll(dir)
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if _, err := AcquireHostLock(context.Background(), 0, HolderInfo{PID: os.Getpid()}); err == nil || !strings.Contains(err.Error(), "writable by others") {
		t.Errorf("world-writable lock folder: %v", err)
	}
	// A link as the folder.
	os.RemoveAll(dir)
	if err := os.Symlink(t.TempDir(), dir); err != nil {
		t.Fatal(err)
	}
	if _, err := AcquireHostLock(context.Background(), 0, HolderInfo{PID: os.Getpid()}); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("linked lock folder: %v", err)
	}
}
