package bisect

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"time"

	"github.com/decodebench/decodebench/redact"
	"github.com/decodebench/decodebench/schema"
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
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	cmd.Dir = worktree
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = 10 * time.Second
	start := time.Now()
	err := cmd.Run()
	res.Seconds = roundSeconds(time.Since(start))
	// Through the data folder, never through a link (safefs).
	if werr := writeIn(dataDir, logName, []byte(r.Text(out.String()))); werr != nil {
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
