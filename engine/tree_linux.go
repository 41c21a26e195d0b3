//go:build linux

package engine

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

// cgroupRoot is where the unified (v2) cgroup hierarchy is mounted.
const cgroupRoot = "/sys/fs/cgroup"

var (
	subreaperOnce sync.Once
	treeSeq       atomic.Int64
)

// newTree prepares a tree: a cgroup of its own under decodebench's, where
// the unified hierarchy is mounted and decodebench may write it; and in
// any case decodebench becomes a child subreaper, so that what detaches
// from the tree is adopted by decodebench and can be found.
func newTree() (*tree, error) {
	subreaperOnce.Do(func() { _ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) })
	t := &tree{cgFD: -1}
	if dir, err := makeCgroup(); err == nil {
		if fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0); err == nil {
			t.cg, t.cgFD = dir, fd
		} else {
			_ = os.Remove(dir)
		}
	}
	return t, nil
}

// ownCgroup is the directory of decodebench's own cgroup in the unified
// hierarchy.
func ownCgroup() (string, error) {
	if _, err := os.Stat(filepath.Join(cgroupRoot, "cgroup.controllers")); err != nil {
		return "", err
	}
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", err
	}
	own := ""
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, "0::"); ok {
			own = rest
		}
	}
	if own == "" {
		return "", errors.New("no unified cgroup")
	}
	return filepath.Join(cgroupRoot, filepath.Clean("/"+own)), nil
}

// makeCgroup creates an empty cgroup under decodebench's own, named after
// this process: decodebench-<pid>-<n>.
func makeCgroup() (string, error) {
	own, err := ownCgroup()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(own, fmt.Sprintf("decodebench-%d-%d", os.Getpid(), treeSeq.Add(1)))
	if err := os.Mkdir(dir, 0o700); err != nil {
		return "", err
	}
	return dir, nil
}

// ReapStaleTrees ends the trees that a decodebench which died without
// stopping its engines (SIGKILL, a crash) left beside this one's: cgroups
// named decodebench-<pid>-<n> whose pid no longer runs. It kills what they
// hold, removes them, and says what it killed.
func ReapStaleTrees() []string {
	own, err := ownCgroup()
	if err != nil {
		return nil
	}
	entries, err := os.ReadDir(own)
	if err != nil {
		return nil
	}
	var said []string
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), "decodebench-")
		pidText, _, ok2 := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || !ok2 || err != nil || !e.IsDir() || pid <= 0 || !errors.Is(unix.Kill(pid, 0), unix.ESRCH) {
			continue
		}
		t := &tree{cg: filepath.Join(own, e.Name()), cgFD: -1}
		if killed := t.kill(); len(killed) > 0 {
			said = append(said, fmt.Sprintf("killed %d process(es) left running by the engine of dead decodebench pid %d: %s", len(killed), pid, leftoversText(killed)))
		}
		t.removeCgroup()
	}
	return said
}

// join moves pid into the tree's cgroup; where that fails the tree goes
// on without one.
func (t *tree) join(pid int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cg == "" {
		return
	}
	if err := os.WriteFile(filepath.Join(t.cg, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0); err != nil {
		_ = os.Remove(t.cg)
		t.cg = ""
	}
}

func (t *tree) cgroupDir() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.cg
}

func (t *tree) cgroupProcs() []int {
	dir := t.cgroupDir()
	if dir == "" {
		return nil
	}
	b, err := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
	if err != nil {
		return nil
	}
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		if n, err := strconv.Atoi(f); err == nil {
			pids = append(pids, n)
		}
	}
	return pids
}

// killCgroup kills every process in the cgroup at once, where the kernel
// has cgroup.kill (5.14 and later).
func (t *tree) killCgroup() {
	if dir := t.cgroupDir(); dir != "" {
		_ = os.WriteFile(filepath.Join(dir, "cgroup.kill"), []byte("1"), 0)
	}
}

func (t *tree) removeCgroup() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cgFD >= 0 {
		_ = unix.Close(t.cgFD)
		t.cgFD = -1
	}
	if t.cg != "" {
		_ = os.Remove(t.cg)
		t.cg = ""
	}
}

// cgroupAttr is a with the process started inside the tree's cgroup
// (clone3's CLONE_INTO_CGROUP); ok is false without a cgroup.
func (t *tree) cgroupAttr(a *syscall.SysProcAttr) (*syscall.SysProcAttr, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cgFD < 0 || t.cg == "" {
		return nil, false
	}
	c := *a
	c.UseCgroupFD, c.CgroupFD = true, t.cgFD
	return &c, true
}

// listProcs reads every process's parent, group, session and state from
// /proc.
func listProcs() ([]proc, error) {
	d, err := os.Open("/proc")
	if err != nil {
		return nil, err
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return nil, err
	}
	out := make([]proc, 0, len(names))
	buf := make([]byte, 1024)
	for _, n := range names {
		pid, err := strconv.Atoi(n)
		if err != nil {
			continue
		}
		if p, ok := readStat(pid, buf); ok {
			out = append(out, p)
		}
	}
	return out, nil
}

// readStat parses /proc/<pid>/stat: "pid (comm) state ppid pgrp session …";
// comm may hold spaces and parentheses, so it ends at the last ')'.
func readStat(pid int, buf []byte) (proc, bool) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return proc{}, false
	}
	n, _ := bufio.NewReader(f).Read(buf)
	f.Close()
	b := buf[:n]
	open, close := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || close < open {
		return proc{}, false
	}
	fields := strings.Fields(string(b[close+1:]))
	if len(fields) < 4 {
		return proc{}, false
	}
	ppid, _ := strconv.Atoi(fields[1])
	pgid, _ := strconv.Atoi(fields[2])
	sid, _ := strconv.Atoi(fields[3])
	return proc{pid: pid, ppid: ppid, pgid: pgid, sid: sid, name: string(b[open+1 : close]), zombie: fields[0] == "Z" || fields[0] == "X"}, true
}
