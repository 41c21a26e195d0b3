//go:build linux

package engine

import (
	"os"
	"os/exec"
	"slices"
	"testing"
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
