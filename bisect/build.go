package bisect

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/internal/capped"
	"github.com/decodebench/decodebench/redact"
	"github.com/decodebench/decodebench/schema"
)

// BuildLogHeadBytes and BuildLogTailBytes bound what is kept of one
// build's output (its log): its first and its last MiB (a failed build's
// error is at its end), with a line saying how much was cut between
// them, docs/reference/bounds-and-security.md says.
const (
	BuildLogHeadBytes = 1 << 20
	BuildLogTailBytes = 1 << 20
)

// DefaultBuildTimeout is --build-timeout's default: a build still running
// after it is killed, and its commit skipped.
const DefaultBuildTimeout = 2 * time.Hour

// buildsDir is the data folder's folder of build logs.
const buildsDir = "builds"

// errBuildTimeout is a build killed at its timeout: a failed build (its
// result says so), unless the timeout was what was left of --max-time.
var errBuildTimeout = errors.New("the build did not finish in time")

// build runs the build command with sh -c in the commit's worktree, as a
// tree of its own (engine.RunTree: its process group, a cgroup where there
// is one): killed whole at timeout (0: none) or when the context ends, and
// whatever it leaves running (a daemon, a background job holding its
// output open) killed when it exits. Its output goes to a log in the data
// folder (logName, relative to it), its secrets masked by r. A failed
// build is a result, not an error: the commit is skipped. A build killed
// at its timeout is a failed one too, and the error is errBuildTimeout.
// Any other error stops the bisect (the log cannot be written, or the
// context ended).
func build(ctx context.Context, dataDir, worktree, command, logName string, r *redact.Redactor, timeout time.Duration) (schema.BisectBuild, error) {
	res := schema.BisectBuild{Log: logName}
	// The output kept is bounded (BuildLogHeadBytes, BuildLogTailBytes):
	// a build that floods its output costs no more memory or disk, and
	// its log says what was cut.
	out := &capped.Buffer{Max: BuildLogHeadBytes, Tail: BuildLogTailBytes}
	cmd := exec.Command("sh", "-c", command)
	cmd.Dir, cmd.Env = worktree, engine.Inherited()
	start := time.Now()
	// The worktree is a folder of the work folder, which holds the pid
	// file of the build running now (a resume after a kill -9 reaps it).
	leftovers, err := engine.RunTreeRecorded(ctx, cmd, out, timeout, filepath.Join(filepath.Dir(worktree), buildPIDFile))
	res.Seconds = roundSeconds(time.Since(start))
	// Through the data folder, never through a link (safefs).
	text := out.String()
	if n := out.Dropped(); n > 0 {
		text += fmt.Sprintf("\n#### decodebench: %d bytes of build output were cut here (the log keeps the first and the last MiB)\n", n)
	}
	text += out.TailString()
	timedOut := errors.Is(err, engine.ErrTreeTimeout)
	if timedOut {
		text += fmt.Sprintf("\n#### decodebench: the build did not finish within %s: it and every process it started were killed\n", timeout)
	} else if len(leftovers) > 0 && ctx.Err() == nil {
		text += fmt.Sprintf("\n#### decodebench: killed %d process(es) the build left running: %s\n", len(leftovers), leftoversText(leftovers))
	}
	if werr := writeIn(dataDir, logName, []byte(r.Text(text))); werr != nil {
		return res, fmt.Errorf("build log: %w", werr)
	}
	if ctx.Err() != nil {
		return res, ctx.Err()
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
		res.OK = true
	case timedOut:
		res.ExitCode = -1
		return res, errBuildTimeout
	case errors.As(err, &ee):
		res.ExitCode = ee.ExitCode()
	default:
		return res, fmt.Errorf("build command: %w", err)
	}
	return res, nil
}

// leftoversText names the processes a build left running.
func leftoversText(l []engine.Leftover) string {
	s := ""
	for i, x := range l {
		if i > 0 {
			s += ", "
		}
		s += x.String()
	}
	return s
}

// roundSeconds keeps a duration to a tenth of a second, as the summary
// shows it.
func roundSeconds(d time.Duration) float64 {
	return float64(d.Round(100*time.Millisecond)) / float64(time.Second)
}
