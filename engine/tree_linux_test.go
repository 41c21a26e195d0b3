//go:build linux

package engine

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// Where the unified cgroup hierarchy is writable, an engine's tree is a
// cgroup of its own: the double-forked daemon is in it, and killing the
// tree ends it. (Elsewhere the subreaper finds it: the daemon tests.)
func TestTreeUsesCgroupWhereWritable(t *testing.T) {
	tr, err := newTree()
	if err != nil {
		t.Fatal(err)
	}
	defer tr.close()
	if tr.cgroupDir() == "" {
		t.Skip("no writable unified cgroup hierarchy on this host")
	}
	path, daemonPID := daemonEngine(t)
	cmd := exec.Command(path)
	cmd.SysProcAttr = procAttr()
	cmd, err = tr.start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	if tr.cgroupDir() == "" {
		t.Fatal("the kernel refused to start the engine in the tree's cgroup")
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	pid := daemonPID()
	if !slices.Contains(tr.cgroupProcs(), pid) {
		t.Errorf("daemon %d not in the tree's cgroup %s: %v", pid, tr.cgroupDir(), tr.cgroupProcs())
	}
	killed := tr.kill()
	if len(killed) != 1 || killed[0].PID != pid || !gone(pid) {
		t.Errorf("killed %v, daemon %d gone %v", killed, pid, gone(pid))
	}
	dir := tr.cgroupDir()
	tr.close()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("cgroup %s left behind: %v", dir, err)
	}
}

// A decodebench killed outright leaves its engine's tree behind; the
// next campaign ends it: a cgroup named after a dead decodebench is
// killed whole and removed, and what it held is named.
func TestReapStaleTrees(t *testing.T) {
	own, err := ownCgroup()
	if err != nil {
		t.Skip("no unified cgroup hierarchy on this host")
	}
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(own, fmt.Sprintf("decodebench-%d-1", dead.Process.Pid))
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Skip("the unified cgroup hierarchy is not writable here:", err)
	}
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	left := exec.Command("sleep", "1000")
	left.SysProcAttr = &syscall.SysProcAttr{Setsid: true, UseCgroupFD: true, CgroupFD: fd}
	if err := left.Start(); err != nil {
		t.Fatal(err)
	}
	unix.Close(fd)
	go left.Wait()
	said := strings.Join(ReapStaleTrees(), "\n")
	if !strings.Contains(said, fmt.Sprintf("%d (sleep)", left.Process.Pid)) {
		t.Errorf("reaping said %q", said)
	}
	if !gone(left.Process.Pid) {
		t.Errorf("the engine left by the dead decodebench still runs")
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("cgroup %s left: %v", dir, err)
	}
}
