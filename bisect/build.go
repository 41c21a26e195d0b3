package bisect

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"time"

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

// buildsDir is the data folder's folder of build logs.
const buildsDir = "builds"

// build runs the build command with sh -c in the commit's worktree,
// writing its output to a log in the data folder (logName, relative to
// it), its secrets masked by r. A failed build is a result, not an
// error: the commit is skipped. The error is for what stops the bisect
// (the log cannot be written, or the context ended).
func build(ctx context.Context, dataDir, worktree, command, logName string, r *redact.Redactor) (schema.BisectBuild, error) {
	res := schema.BisectBuild{Log: logName}
	// The output kept is bounded (BuildLogHeadBytes, BuildLogTailBytes):
	// a build that floods its output costs no more memory or disk, and
	// its log says what was cut.
	out := &capped.Buffer{Max: BuildLogHeadBytes, Tail: BuildLogTailBytes}
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	cmd.Dir = worktree
	cmd.Stdout, cmd.Stderr = out, out
	cmd.WaitDelay = 10 * time.Second
	start := time.Now()
	err := cmd.Run()
	res.Seconds = roundSeconds(time.Since(start))
	// Through the data folder, never through a link (safefs).
	text := out.String()
	if n := out.Dropped(); n > 0 {
		text += fmt.Sprintf("\n#### decodebench: %d bytes of build output were cut here (the log keeps the first and the last MiB)\n", n)
	}
	text += out.TailString()
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
	case errors.As(err, &ee):
		res.ExitCode = ee.ExitCode()
	default:
		return res, fmt.Errorf("build command: %w", err)
	}
	return res, nil
}

// roundSeconds keeps a duration to a tenth of a second, as the summary
// shows it.
func roundSeconds(d time.Duration) float64 {
	return float64(d.Round(100*time.Millisecond)) / float64(time.Second)
}
