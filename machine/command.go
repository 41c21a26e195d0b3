package machine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/decodebench/decodebench/internal/capped"
)

// commandTimeout bounds every tool the telemetry runs. They answer in
// milliseconds (system_profiler in about a second); the bound only keeps a
// wedged tool from stalling a benchmark.
const commandTimeout = 10 * time.Second

// errNotAvailable marks a tool that is not on this machine: the reading is
// "not available", not a failure.
var errNotAvailable = errors.New("not available")

// A runner runs a tool and returns its standard output. Tests replace it
// with canned outputs.
type runner func(ctx context.Context, name string, args ...string) ([]byte, error)

// Bounds on what a tool decodebench runs for the machine's description
// and conditions (sysctl, system_profiler, ioreg, pmset, nvidia-smi, …)
// may print, checked while it prints: its standard output past
// MaxToolOutput ends it with an error that names the bound (what it
// printed is not quoted); of its standard error only the first
// maxToolStderr bytes are kept, to quote when it fails.
// docs/reference/bounds-and-security.md states them.
const (
	// MaxToolOutput bounds a tool's standard output. The largest,
	// system_profiler's JSON and ioreg's accelerator entry, are tens of
	// kilobytes.
	MaxToolOutput = 16 << 20
	// maxToolStderr bounds what is kept of a tool's standard error.
	maxToolStderr = 4 << 10
)

// ErrToolOutputTooLarge is wrapped by the error of a tool whose output
// passed MaxToolOutput.
var ErrToolOutputTooLarge = errors.New("output larger than decodebench accepts")

// boundedOutput keeps a tool's standard output up to max bytes; a write
// past them fails, which closes the pipe and ends the tool's writing
// (os/exec stops copying), instead of growing without end.
type boundedOutput struct {
	buf  bytes.Buffer
	max  int
	over bool
}

func (b *boundedOutput) Write(p []byte) (int, error) {
	if b.buf.Len()+len(p) > b.max {
		b.over = true
		return 0, ErrToolOutputTooLarge
	}
	return b.buf.Write(p)
}

// RunBounded runs cmd (not yet started, Stdout and Stderr unset) with its
// standard output bounded by MaxToolOutput and its standard error by
// maxToolStderr. It returns what it printed on each; err is
// ErrToolOutputTooLarge (wrapped, saying the limit) when the output
// passed its bound, whatever the tool did after.
func RunBounded(cmd *exec.Cmd) (stdout, stderr []byte, err error) {
	out := &boundedOutput{max: MaxToolOutput}
	errb := &capped.Buffer{Max: maxToolStderr}
	cmd.Stdout, cmd.Stderr = out, errb
	err = cmd.Run()
	if out.over {
		err = fmt.Errorf("%w (the limit is %d MiB; see docs/reference/bounds-and-security.md)", ErrToolOutputTooLarge, MaxToolOutput>>20)
	}
	return out.buf.Bytes(), []byte(errb.String()), err
}

// runTool runs name with args under commandTimeout, its output bounded
// (RunBounded). A tool missing from PATH is errNotAvailable; a failing
// one is an error that quotes its first line of complaint (quoteLine).
func runTool(ctx context.Context, name string, args ...string) ([]byte, error) {
	path, err := exec.LookPath(name)
	if err != nil {
		return nil, fmt.Errorf("%w: %s is not on PATH", errNotAvailable, name)
	}
	ctx, cancel := context.WithTimeout(ctx, commandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.WaitDelay = time.Second
	out, stderr, err := RunBounded(cmd)
	if err != nil {
		if errors.Is(err, ErrToolOutputTooLarge) {
			return nil, fmt.Errorf("%s %s: %w", name, strings.Join(args, " "), err)
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			err = ctxErr
		}
		msg := bytes.TrimSpace(append(stderr, out...))
		if len(msg) > 0 {
			return out, fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, quoteLine(string(msg)))
		}
		return out, fmt.Errorf("%s %s: %w", name, strings.Join(args, " "), err)
	}
	return out, nil
}

// An Unavailable names a reading that could not be taken and why: the tool
// is missing ("not available"), failed, or printed something unreadable.
type Unavailable struct {
	Source string `json:"source"` // the command or file, e.g. "pmset -g therm"
	Reason string `json:"reason"`
}

// unavailable records that source could not be read.
func unavailable(list *[]Unavailable, source string, err error) {
	*list = append(*list, Unavailable{Source: source, Reason: err.Error()})
}
