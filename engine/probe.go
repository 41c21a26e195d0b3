package engine

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"syscall"
	"time"

	"github.com/decodebench/decodebench/internal/capped"
)

// probeWaitDelay is how long a probe's output is read after the probe
// exited, or after its deadline killed it: a process it left behind that
// keeps the output open (a daemon it forked) cannot hold decodebench
// longer than that.
const probeWaitDelay = time.Second

// probe is a short command decodebench runs to learn something (an
// engine's version, the git state of its source): its own process group,
// killed whole at its deadline and when it returns; its output bounded
// (MaxVersionBytes); its run bounded by timeout plus probeWaitDelay
// whatever the processes it starts do with the pipes they inherit.
type probe struct {
	argv     []string
	env      []string
	dir      string
	timeout  time.Duration
	combined bool // stderr too, not only stdout
}

// probeResult is what a probe printed, and what had to be killed after it.
type probeResult struct {
	out string
	// cut counts the bytes past MaxVersionBytes that were dropped.
	cut int64
	// killed are the processes it left running, ended when it returned.
	killed []Leftover
}

// errProbeTimeout says a probe did not finish within its deadline.
var errProbeTimeout = errors.New("no answer")

func (p probe) run(ctx context.Context) (probeResult, error) {
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	cmd := exec.Command(p.argv[0], p.argv[1:]...)
	cmd.Env, cmd.Dir = p.env, p.dir
	out := &capped.Buffer{Max: MaxVersionBytes}
	cmd.Stdout = out
	if p.combined {
		cmd.Stderr = out
	}
	tree, err := newTree()
	if err != nil {
		return probeResult{}, err
	}
	defer tree.close()
	cmd.SysProcAttr = procAttr()
	cmd.WaitDelay = probeWaitDelay
	if cmd, err = tree.start(cmd); err != nil {
		return probeResult{}, err
	}
	// At its deadline the probe's group is killed; what left the group
	// is killed with the tree below.
	pid := cmd.Process.Pid
	stop := context.AfterFunc(ctx, func() { _ = syscall.Kill(-pid, syscall.SIGKILL) })
	err = cmd.Wait()
	stop()
	res := probeResult{out: out.String(), cut: out.Dropped()}
	// Whatever it started and left running ends with it.
	res.killed = tree.kill()
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		return res, fmt.Errorf("%w within %s", errProbeTimeout, p.timeout)
	case errors.Is(err, exec.ErrWaitDelay):
		// It exited, but left a process holding its output open: that
		// process was killed above; what it printed is the answer.
		return res, nil
	}
	return res, err
}
