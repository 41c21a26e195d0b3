package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// daemonEngine returns the double-forking engine (testdata/daemonize.sh)
// and a function that reads its daemon's pid once it has started.
func daemonEngine(t *testing.T) (path string, daemonPID func() int) {
	t.Helper()
	path, err := filepath.Abs("testdata/daemonize.sh")
	if err != nil {
		t.Fatal(err)
	}
	pidfile := filepath.Join(t.TempDir(), "daemon.pid")
	t.Setenv("DAEMON_PIDFILE", pidfile)
	return path, func() int {
		t.Helper()
		b, err := os.ReadFile(pidfile)
		pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || pid <= 1 {
			t.Fatalf("the engine wrote no daemon pid: %v %q", err, b)
		}
		t.Cleanup(func() { unix.Kill(pid, unix.SIGKILL) })
		return pid
	}
}

// gone reports whether pid has ended (and been reaped) within a second.
func gone(pid int) bool {
	for i := 0; i < 100; i++ {
		if errors.Is(unix.Kill(pid, 0), unix.ESRCH) {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

// A version probe whose engine leaves a setsid() daemon holding its output
// open is bounded (it took 75.9 s against a documented 30 s, holding the
// host lock), and the daemon is killed and named.
func TestVersionProbeBoundedAndContained(t *testing.T) {
	path, daemonPID := daemonEngine(t)
	start := time.Now()
	id := Identify(context.Background(), path, os.Environ(), "")
	took := time.Since(start)
	pid := daemonPID()
	if took > 10*time.Second {
		t.Errorf("the probe took %s", took)
	}
	if id.Version != "daemonize 1.0" {
		t.Errorf("version %q, problems %q", id.Version, id.Problems)
	}
	if !gone(pid) {
		t.Errorf("the daemon %d the probe left still runs", pid)
	}
	if p := strings.Join(id.Problems, "; "); !strings.Contains(p, "killed: "+strconv.Itoa(pid)) {
		t.Errorf("problems do not name the killed daemon: %q", p)
	}
}

// A command engine that double-forks a daemon: the run ends when the
// command does, the daemon is killed, and the result names it.
func TestCommandEngineDaemonKilled(t *testing.T) {
	path, daemonPID := daemonEngine(t)
	res, err := RunCommand(context.Background(), CommandConfig{Command: []string{path}, LogPath: filepath.Join(t.TempDir(), "e.log"), Label: "measured", Timeout: time.Minute})
	pid := daemonPID()
	if err != nil {
		t.Fatal(err)
	}
	if !gone(pid) {
		t.Errorf("the daemon %d still runs", pid)
	}
	if len(res.Leftovers) != 1 || res.Leftovers[0].PID != pid || res.Leftovers[0].Name != "sleep" {
		t.Errorf("leftovers %v, want the daemon %d", res.Leftovers, pid)
	}
}

// A server engine that double-forks a daemon and never becomes ready: the
// failed start stops the engine and its whole tree, the daemon included.
func TestServerDaemonKilledOnFailedStart(t *testing.T) {
	path, daemonPID := daemonEngine(t)
	log := filepath.Join(t.TempDir(), "e.log")
	_, err := Start(context.Background(), Config{Command: []string{path, "serve"}, ReadyPath: "/health", ReadyTimeout: 1500 * time.Millisecond, StopGrace: time.Second, LogPath: log})
	if err == nil {
		t.Fatal("started")
	}
	pid := daemonPID()
	if !gone(pid) {
		t.Errorf("the daemon %d still runs after the failed start", pid)
	}
	b, _ := os.ReadFile(log)
	if !strings.Contains(string(b), "left running: "+strconv.Itoa(pid)+" (sleep)") {
		t.Errorf("the log does not name the killed daemon:\n%s", b)
	}
}
