//go:build unix

package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/shirou/gopsutil/v4/process"
	"golang.org/x/sys/unix"
)

// PIDRecord is what a pid file says about a running engine: its pid (also
// its process group) and start time, and the decodebench that started it.
// A stale engine is killed only when pid AND start time both match, so a
// recycled pid is never touched.
type PIDRecord struct {
	PID        int    `json:"pid"`
	StartMS    int64  `json:"start_ms"` // process creation time, ms since the epoch
	Owner      int    `json:"owner_pid"`
	OwnerStart int64  `json:"owner_start_ms"`
	Command    string `json:"command"`
}

// startMS is a process's creation time in ms since the epoch; 0 when it
// does not exist.
func startMS(pid int) int64 {
	p, err := process.NewProcess(int32(pid))
	if err != nil {
		return 0
	}
	t, err := p.CreateTime()
	if err != nil {
		return 0
	}
	return t
}

func writePIDFiles(paths []string, pid int, command string) {
	rec := PIDRecord{PID: pid, StartMS: startMS(pid), Owner: os.Getpid(), OwnerStart: startMS(os.Getpid()), Command: command}
	b, _ := json.Marshal(rec)
	for _, p := range paths {
		_ = os.WriteFile(p, append(b, '\n'), 0o644)
	}
}

func removePIDFiles(paths []string) {
	for _, p := range paths {
		_ = os.Remove(p)
	}
}

// ReapStale reads a pid file left by a campaign and, when the campaign
// that wrote it is dead and the engine it names still runs with the same
// start time, kills the engine's process group. It removes the file unless
// its owner still runs. It says what it did.
func ReapStale(path string) (string, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	var r PIDRecord
	if err := json.Unmarshal(b, &r); err != nil || r.PID <= 1 {
		_ = os.Remove(path)
		return "", fmt.Errorf("engine pid file %s unreadable; removed", path)
	}
	if r.Owner > 0 && r.OwnerStart != 0 && startMS(r.Owner) == r.OwnerStart {
		return "", nil // its campaign still runs
	}
	defer os.Remove(path)
	if r.StartMS == 0 || startMS(r.PID) != r.StartMS {
		return "", nil // gone, or the pid was recycled
	}
	if err := unix.Kill(-r.PID, unix.SIGKILL); err != nil {
		_ = unix.Kill(r.PID, unix.SIGKILL)
	}
	return fmt.Sprintf("killed engine pid %d (%s) left running by dead campaign pid %d", r.PID, r.Command, r.Owner), nil
}
