package machine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/decodebench/decodebench/internal/abbrev"
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

// runTool runs name with args under commandTimeout. A tool missing from PATH
// is errNotAvailable; a failing one is an error that quotes its first line
// of complaint.
func runTool(ctx context.Context, name string, args ...string) ([]byte, error) {
	path, err := exec.LookPath(name)
	if err != nil {
		return nil, fmt.Errorf("%w: %s is not on PATH", errNotAvailable, name)
	}
	ctx, cancel := context.WithTimeout(ctx, commandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.WaitDelay = time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			err = ctxErr
		}
		msg := bytes.TrimSpace(append(stderr.Bytes(), out...))
		if len(msg) > 0 {
			return out, fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, strings.TrimSpace(abbrev.FirstLine(string(msg))))
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
