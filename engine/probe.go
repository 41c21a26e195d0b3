package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
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

// probeSlowAfter is how long a probe runs before a line says what
// decodebench is waiting for (a version command that hangs holds the run
// for its whole timeout otherwise without a word).
const probeSlowAfter = 5 * time.Second

// probeNotice is where that line goes (a test replaces it).
var probeNotice io.Writer = os.Stderr

// errProbeTimeout says a probe did not finish within its deadline.
var errProbeTimeout = errors.New("no answer")

func (p probe) run(ctx context.Context) (probeResult, error) {
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	cmd := exec.Command(p.argv[0], p.argv[1:]...)
	cmd.Env, cmd.Dir = p.env, p.dir
	out := &probeOutput{buf: capped.Buffer{Max: MaxVersionBytes}}
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
	killGroup := func() { _ = syscall.Kill(-pid, syscall.SIGKILL) }
	out.setKill(killGroup)
	stop := context.AfterFunc(ctx, killGroup)
	slow := time.AfterFunc(probeSlowAfter, func() {
		fmt.Fprintf(probeNotice, "waiting for %s (pid %d) to answer: at most %s\n", cutText(strings.Join(p.argv, " "), 200), pid, p.timeout)
	})
	err = cmd.Wait()
	slow.Stop()
	stop()
	res := probeResult{out: out.buf.String(), cut: out.buf.Dropped()}
	// Whatever it started and left running ends with it.
	res.killed = tree.kill()
	switch {
	case out.over():
		// It printed more than the bound: it was killed there, and what
		// was kept is the answer (res.cut says the rest was not read).
		return res, nil
	case ctx.Err() == context.DeadlineExceeded:
		return res, fmt.Errorf("%w within %s", errProbeTimeout, p.timeout)
	case errors.Is(err, exec.ErrWaitDelay):
		// It exited, but left a process holding its output open: that
		// process was killed above; what it printed is the answer.
		return res, nil
	}
	return res, err
}

// errProbeFlood stops exec's copy of a probe's output once it passed
// MaxVersionBytes.
var errProbeFlood = errors.New("printed more than the bound")

// probeOutput keeps what a probe printed up to MaxVersionBytes; past it
// the probe's group is killed at once and the write refused, so that a
// probe printing without end (exec yes) is not read and discarded until
// its timeout.
type probeOutput struct {
	buf  capped.Buffer
	kill func()
	mu   sync.Mutex
	past bool
}

func (o *probeOutput) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.past {
		return 0, errProbeFlood
	}
	_, _ = o.buf.Write(p)
	if o.buf.Dropped() > 0 {
		o.past = true
		if o.kill != nil {
			o.kill()
		}
		return 0, errProbeFlood
	}
	return len(p), nil
}

// setKill names how to kill the probe, at once if it already printed
// too much.
func (o *probeOutput) setKill(kill func()) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.kill = kill
	if o.past {
		kill()
	}
}

// over reports whether the probe printed more than the bound.
func (o *probeOutput) over() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.past
}
