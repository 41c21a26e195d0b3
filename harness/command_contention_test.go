package harness

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/internal/execfile"
	"github.com/decodebench/decodebench/machine"
)

// A command engine is watched for contention over its whole run, its
// process group's own CPU (its rusage, read once it has exited and no
// listing shows it) counted as the engine's, never as another process's.
func TestCommandEngineContentionCountsTheCommand(t *testing.T) {
	ctx := context.Background()
	var meter *machine.ContentionMeter
	var startErr error
	var watched time.Time // no later than the meter's window began
	// The "engine": a shell whose worker spins through a fixed count (about
	// 0.5 s of CPU, however long a loaded host makes it take). The worker
	// is a copy of sh under a name of its own, so that a busy shell the
	// host runs beside the test (a background load) is never taken for it.
	worker := workerShell(t)
	res, err := engine.RunCommand(ctx, engine.CommandConfig{
		Command: []string{"sh", "-c", worker + " -c 'i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done'; echo done"},
		LogPath: filepath.Join(t.TempDir(), "run.log"),
		OnStart: func(pid int) { watched = time.Now(); meter, startErr = machine.StartContention(ctx, pid) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if startErr != nil || meter == nil {
		t.Fatalf("the meter did not start: %v", startErr)
	}
	c, err := meter.StopExited(ctx, res.CPU)
	if err != nil {
		t.Fatal(err)
	}
	// The meter's window lies within this span, which a loaded host
	// (listing every process is slow beside a busy engine) makes longer
	// than the command's own wall time.
	span := time.Since(watched)
	t.Logf("%+v; the command used %v CPU in %v, watched for at most %v", c, res.CPU, res.Wall, span)

	if res.CPU < 50*time.Millisecond {
		t.Fatalf("the command's rusage says %v CPU: the spinning worker was not counted", res.CPU)
	}
	share := res.CPU.Seconds() / span.Seconds() / float64(runtime.NumCPU())
	if c.Measured < share*0.9 {
		t.Errorf("measured %.3f of the machine, the command alone used %.3f", c.Measured, share)
	}
	for _, o := range c.TopOthers {
		if o.Name == filepath.Base(worker) {
			t.Errorf("the command's worker counted as another process: %+v", o)
		}
	}
}

// workerShell is a copy of sh named for this test alone.
func workerShell(t *testing.T) string {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(sh)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), fmt.Sprintf("dbspin%d", os.Getpid()))
	if err := execfile.Write(path, b, 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}
