//go:build unix

package engine

import (
	"fmt"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// A tree contains everything an engine (or a probe) starts: its process
// group, every descendant however it detached (a double fork and setsid()
// leave both the group and the session), and on Linux a cgroup of its own
// where decodebench may create one (tree_linux.go). kill ends the whole
// tree, and says what it found still running; it is called on every path
// by which an engine stops.
//
// Where there is no cgroup, Linux makes decodebench a child subreaper, so
// that a process whose parent exits is adopted by decodebench rather than
// by init and stays findable by its parent pid; macOS has no such thing,
// and there a descendant that detached and whose parent exited can escape.
type tree struct {
	mu     sync.Mutex
	leader int
	// cg is the tree's cgroup directory, empty when there is none; cgFD
	// the directory, open (Linux; -1 without).
	cg   string
	cgFD int
}

// Leftover is a process of an engine's tree that was still running when
// the engine stopped, and was killed.
type Leftover struct {
	PID  int
	Name string
}

func (l Leftover) String() string { return fmt.Sprintf("%d (%s)", l.PID, l.Name) }

// proc is one process as the tree sees it.
type proc struct {
	pid, ppid, pgid, sid int
	name                 string
	zombie               bool
}

// ownLeaders are the processes this program started itself in their own
// groups (engines, probes, watchdogs): a process adopted by decodebench
// (parent pid ours) that is none of them was left behind by one of its
// trees.
var ownLeaders = struct {
	sync.Mutex
	m map[int]bool
}{m: map[int]bool{}}

func registerLeader(pid int) {
	ownLeaders.Lock()
	ownLeaders.m[pid] = true
	ownLeaders.Unlock()
}

func unregisterLeader(pid int) {
	ownLeaders.Lock()
	delete(ownLeaders.m, pid)
	ownLeaders.Unlock()
}

func isOwnLeader(pid int) bool {
	ownLeaders.Lock()
	defer ownLeaders.Unlock()
	return ownLeaders.m[pid]
}

// start starts cmd as the tree's first process: inside the tree's cgroup
// from its first instruction where there is one, so that a process that
// forks at once cannot leave it before it joins. Where the kernel refuses
// that, the tree goes on without a cgroup and a copy of cmd is started
// plainly. It returns the command that runs.
func (t *tree) start(cmd *exec.Cmd) (*exec.Cmd, error) {
	base := cmd.SysProcAttr
	if attr, ok := t.cgroupAttr(base); ok {
		plain := &exec.Cmd{Path: cmd.Path, Args: cmd.Args, Env: cmd.Env, Dir: cmd.Dir, Stdin: cmd.Stdin, Stdout: cmd.Stdout, Stderr: cmd.Stderr,
			ExtraFiles: cmd.ExtraFiles, SysProcAttr: base, WaitDelay: cmd.WaitDelay, Err: cmd.Err}
		cmd.SysProcAttr = attr
		if err := cmd.Start(); err == nil {
			t.started(cmd.Process.Pid)
			return cmd, nil
		}
		t.removeCgroup()
		cmd = plain
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	t.started(cmd.Process.Pid)
	return cmd, nil
}

// started records the tree's first process, once it runs.
func (t *tree) started(pid int) {
	t.mu.Lock()
	t.leader = pid
	t.mu.Unlock()
	registerLeader(pid)
	t.join(pid)
}

// members returns the tree's processes: those of the leader's group, the
// leader's descendants, the processes adopted by decodebench that it did
// not start, and their descendants, and (Linux) the cgroup's.
func (t *tree) members() []proc {
	procs, err := listProcs()
	if err != nil {
		return nil
	}
	self, sid := unix.Getpid(), mySid()
	pgid, _ := unix.Getpgid(0)
	byPID := map[int]proc{}
	children := map[int][]int{}
	for _, p := range procs {
		byPID[p.pid] = p
		children[p.ppid] = append(children[p.ppid], p.pid)
	}
	in := map[int]bool{}
	var add func(pid int)
	add = func(pid int) {
		if in[pid] || pid == self || pid <= 1 {
			return
		}
		in[pid] = true
		for _, c := range children[pid] {
			add(c)
		}
	}
	t.mu.Lock()
	leader := t.leader
	t.mu.Unlock()
	if leader > 0 {
		if _, ok := byPID[leader]; ok {
			add(leader)
		}
		for _, p := range procs {
			if p.pgid == leader {
				add(p.pid)
			}
		}
	}
	for _, p := range procs {
		// Adopted: our child, not started by us, and in a group or
		// session of its own (a child another part of decodebench
		// started shares both with it).
		if p.ppid == self && !isOwnLeader(p.pid) && (p.sid != sid || p.pgid != pgid) {
			add(p.pid)
		}
	}
	for _, pid := range t.cgroupProcs() {
		add(pid)
	}
	out := make([]proc, 0, len(in))
	for pid := range in {
		if p, ok := byPID[pid]; ok {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].pid < out[j].pid })
	return out
}

// kill ends every process of the tree but the leader, which its own
// command waits for, and returns those it found running. It keeps at it
// until the tree is empty (a process may fork while it is being killed),
// for at most a second.
func (t *tree) kill() []Leftover {
	t.mu.Lock()
	leader := t.leader
	t.mu.Unlock()
	var killed []Leftover
	seen := map[int]bool{}
	deadline := time.Now().Add(time.Second)
	for {
		live := 0
		self := unix.Getpid()
		members := t.members()
		// Named first, then killed: the cgroup is killed at once.
		t.killCgroup()
		for _, p := range members {
			if p.zombie {
				if p.ppid == self && p.pid != leader && !isOwnLeader(p.pid) {
					reap(p.pid)
				}
				continue
			}
			live++
			if p.pid != leader && !seen[p.pid] {
				seen[p.pid] = true
				killed = append(killed, Leftover{PID: p.pid, Name: p.name})
			}
			_ = unix.Kill(p.pid, unix.SIGKILL)
		}
		if live == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	return killed
}

// close ends the tree and releases what holds it (the cgroup).
func (t *tree) close() {
	t.kill()
	t.mu.Lock()
	leader := t.leader
	t.mu.Unlock()
	if leader > 0 {
		unregisterLeader(leader)
	}
	t.removeCgroup()
}

// reap collects an adopted process that has exited.
func reap(pid int) {
	var ws unix.WaitStatus
	_, _ = unix.Wait4(pid, &ws, unix.WNOHANG, nil)
}

func mySid() int {
	sid, _ := unix.Getsid(0)
	return sid
}

// leftoversText lists leftovers for a log line or an error.
func leftoversText(l []Leftover) string {
	s := make([]string, len(l))
	for i, x := range l {
		s[i] = x.String()
	}
	return strings.Join(s, ", ")
}
