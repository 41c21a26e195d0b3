//go:build unix

package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// ErrTreeTimeout is a command RunTree killed at its timeout.
var ErrTreeTimeout = errors.New("did not finish")

// treeStopGrace is the time between SIGTERM to a stopped command's group
// and SIGKILL to its whole tree; treeOutputDrain how long its output is
// read once the tree is gone (a process that escaped the tree and holds
// the output open cannot hold RunTree longer).
const (
	treeStopGrace   = 5 * time.Second
	treeOutputDrain = 2 * time.Second
)

// RunTree runs cmd (a build, say) as an engine runs: in a tree of its own
// (its process group; on Linux a cgroup where one can be made, with
// decodebench a subreaper, tree.go), its standard output and error, in the
// order written, into out. It waits for cmd to exit, then kills what it
// left running (a daemon it forked, a background job holding its output
// open: neither outlives it nor holds RunTree) and returns those as
// leftovers. At timeout (0: none) or when ctx ends, the group gets SIGTERM
// and, treeStopGrace later, the whole tree SIGKILL; the error is then
// ErrTreeTimeout (wrapped) or ctx's. Otherwise the error is cmd's exit
// (an *exec.ExitError when it failed). A second Ctrl-C (KillAll) kills
// the tree too.
func RunTree(ctx context.Context, cmd *exec.Cmd, out io.Writer, timeout time.Duration) ([]Leftover, error) {
	return runTree(ctx, cmd, out, timeout, "")
}

// RunTreeRecorded is RunTree that writes pidFile (a PIDRecord,
// owner-only) while cmd runs and removes it when cmd's tree is gone: a
// decodebench killed with SIGKILL leaves it, and ReapStale kills the
// group it names when its pid, start time and executable still match.
// cmd runs nothing before pidFile is written (startRecorded).
func RunTreeRecorded(ctx context.Context, cmd *exec.Cmd, out io.Writer, timeout time.Duration, pidFile string) ([]Leftover, error) {
	return runTree(ctx, cmd, out, timeout, pidFile)
}

func runTree(ctx context.Context, cmd *exec.Cmd, out io.Writer, timeout time.Duration, pidFile string) ([]Leftover, error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer pr.Close()
	// The pipe is the command's own file: Wait returns when the command
	// exits, not when every holder of the pipe has let go.
	cmd.Stdout, cmd.Stderr = pw, pw
	cmd.SysProcAttr = procAttr()
	tr, err := newTree()
	if err != nil {
		pw.Close()
		return nil, err
	}
	defer tr.close()
	if pidFile == "" {
		cmd, err = tr.start(cmd)
	} else {
		// Nothing of the command runs before its record is written
		// (startRecorded): killed in between, decodebench leaves no
		// tree that the record does not name.
		command, exe := cmd.Path, execTarget(cmd)
		cmd, err = tr.startRecorded(cmd, func(pid int) {
			if afterTreeStart != nil {
				afterTreeStart(pid)
			}
			if exe == "" {
				exe = exeOf(pid)
			}
			writePIDRecord([]string{pidFile}, pid, exe, command)
		})
		if err == nil {
			defer removePIDFiles([]string{pidFile})
		}
	}
	pw.Close()
	if err != nil {
		return nil, err
	}
	liveTrees.add(tr)
	defer liveTrees.remove(tr)
	copied := make(chan struct{})
	go func() {
		_, _ = io.Copy(out, pr)
		close(copied)
	}()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var timer <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		timer = t.C
	}
	var stopped, waitErr error
	exited := false
	select {
	case waitErr = <-done:
		exited = true
	case <-ctx.Done():
		stopped = ctx.Err()
	case <-timer:
		stopped = fmt.Errorf("%w within %s", ErrTreeTimeout, timeout)
	}
	if stopped != nil {
		signalGroup(cmd.Process.Pid, syscall.SIGTERM)
		select {
		case waitErr = <-done:
			exited = true
		case <-time.After(treeStopGrace):
		}
	}
	leftovers := tr.kill()
	if !exited {
		waitErr = <-done
	}
	select {
	case <-copied:
	case <-time.After(treeOutputDrain):
		pr.Close()
		<-copied
	}
	if stopped != nil {
		return leftovers, stopped
	}
	return leftovers, waitErr
}

// afterTreeStart, set by tests, runs between a tree's start and its
// record: the time a loaded machine may take to schedule decodebench
// again.
var afterTreeStart func(pid int)

// liveTrees are the trees RunTree is running, for KillAll.
var liveTrees = treeSet{m: map[*tree]bool{}}

type treeSet struct {
	sync.Mutex
	m map[*tree]bool
}

func (s *treeSet) add(t *tree)    { s.Lock(); s.m[t] = true; s.Unlock() }
func (s *treeSet) remove(t *tree) { s.Lock(); delete(s.m, t); s.Unlock() }

// killAll sends SIGKILL to every process of every tree, without waiting.
func (s *treeSet) killAll() {
	s.Lock()
	defer s.Unlock()
	for t := range s.m {
		t.killCgroup()
		for _, p := range t.members() {
			_ = syscall.Kill(p.pid, syscall.SIGKILL)
		}
	}
}
