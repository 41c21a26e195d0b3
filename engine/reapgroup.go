//go:build unix

package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/shirou/gopsutil/v4/process"
	"golang.org/x/sys/unix"

	"github.com/decodebench/decodebench/internal/safefs"
)

// ReapStaleGroup is ReapStale for a command whose tree outlives its
// leader (a build: the parent-death signal ends its shell, not what the
// shell started): when the decodebench that wrote the pid file is dead,
// it kills the group the file names. With the leader still running (the
// same start time and executable) that is ReapStale; with it gone, each
// process still in its group (the kernel hands out no pid that names a
// live group) started no earlier than the leader is killed. It removes
// the file unless its owner still runs, and says what it did.
func ReapStaleGroup(path string) (string, error) {
	f, err := safefs.Open(path, maxPIDFileBytes)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("pid file refused: %w", err)
	}
	if err := safefs.CheckPrivate(f); err != nil {
		f.Close()
		return "", fmt.Errorf("pid file refused: %w", err)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxPIDFileBytes))
	f.Close()
	if err != nil {
		return "", err
	}
	var r PIDRecord
	if err := json.Unmarshal(b, &r); err != nil || r.PID <= 1 || r.StartMS == 0 {
		_ = os.Remove(path)
		return "", fmt.Errorf("pid file %s unreadable; removed", path)
	}
	if r.Owner > 0 && r.OwnerStart != 0 && startMS(r.Owner) == r.OwnerStart {
		return "", nil // its decodebench still runs
	}
	if startMS(r.PID) == r.StartMS && exeOf(r.PID) != "" {
		return ReapStale(path) // the leader runs (a zombie has no executable)
	}
	defer os.Remove(path)
	pids, err := process.Pids()
	if err != nil {
		return "", err
	}
	var killed []int
	for _, p := range pids {
		if pg, err := unix.Getpgid(int(p)); err != nil || pg != r.PID {
			continue
		}
		if s := startMS(int(p)); s == 0 || s < r.StartMS {
			continue
		}
		if unix.Kill(int(p), unix.SIGKILL) == nil {
			killed = append(killed, int(p))
		}
	}
	if len(killed) == 0 {
		return "", nil
	}
	return fmt.Sprintf("killed %d process(es) of group %d (%s) left running by dead decodebench pid %d: %v", len(killed), r.PID, r.Command, r.Owner, killed), nil
}
