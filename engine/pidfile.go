//go:build unix

package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/shirou/gopsutil/v4/process"
	"golang.org/x/sys/unix"

	"github.com/decodebench/decodebench/internal/safefs"
)

// PIDRecord is what a pid file says about a running engine: its pid (also
// its process group), start time and executable, and the decodebench that
// started it. A stale engine is killed only when pid, start time AND
// executable all match, so a recycled pid, or a pid file planted to name
// another program, is never touched.
type PIDRecord struct {
	PID        int    `json:"pid"`
	StartMS    int64  `json:"start_ms"` // process creation time, ms since the epoch
	Exe        string `json:"exe,omitempty"`
	Owner      int    `json:"owner_pid"`
	OwnerStart int64  `json:"owner_start_ms"`
	Command    string `json:"command"`
}

// maxPIDFileBytes bounds what a pid file may hold.
const maxPIDFileBytes = 64 << 10

// exeOf is a running process's executable; "" when it cannot be read.
func exeOf(pid int) string {
	p, err := process.NewProcess(int32(pid))
	if err != nil {
		return ""
	}
	exe, err := p.Exe()
	if err != nil {
		return ""
	}
	return exe
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

// writePIDFiles writes the engine's record, owner-only, each file created
// beside its target and renamed over it: never through a link.
func writePIDFiles(paths []string, pid int, command string) {
	writePIDRecord(paths, pid, exeOf(pid), command)
}

// writePIDRecord is writePIDFiles for a process whose executable is not
// yet the one it will run (a command held by its gate, startRecorded).
func writePIDRecord(paths []string, pid int, exe, command string) {
	rec := PIDRecord{PID: pid, StartMS: startMS(pid), Exe: exe, Owner: os.Getpid(), OwnerStart: startMS(os.Getpid()), Command: command}
	b, _ := json.Marshal(rec)
	for _, p := range paths {
		_ = safefs.WriteFile(p, append(b, '\n'), 0o600)
	}
}

func removePIDFiles(paths []string) {
	for _, p := range paths {
		_ = os.Remove(p)
	}
}

// ReapStale reads a pid file left by a campaign and, when the campaign
// that wrote it is dead and the engine it names still runs with the same
// start time and executable, kills the engine's process group. A pid file
// that is a link, a special file, another user's, or writable by others
// is refused (and left alone): it was not written by a campaign of this
// user. It removes the file unless its owner still runs. It says what it
// did.
func ReapStale(path string) (string, error) {
	f, err := safefs.Open(path, maxPIDFileBytes)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("engine pid file refused: %w", err)
	}
	if err := safefs.CheckPrivate(f); err != nil {
		f.Close()
		return "", fmt.Errorf("engine pid file refused: %w", err)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxPIDFileBytes))
	f.Close()
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
	if r.StartMS == 0 {
		return "", nil
	}
	switch leader := startMS(r.PID); {
	case leader != 0 && leader != r.StartMS:
		return "", nil // the pid was recycled: its group is another's
	case leader == 0 || exeOf(r.PID) == "":
		// Gone (a zombie has no executable): its parent-death signal
		// reached the engine alone, and what it started in its own group
		// may run on (a worker holding the port, a build's compiler).
		return reapStaleGroup(r), nil
	}
	if exe := exeOf(r.PID); r.Exe == "" || exe != r.Exe {
		return fmt.Sprintf("left engine pid %d running: its executable (%q) is not the one its pid file names (%q)", r.PID, exe, r.Exe), nil
	}
	if err := unix.Kill(-r.PID, unix.SIGKILL); err != nil {
		_ = unix.Kill(r.PID, unix.SIGKILL)
	}
	return fmt.Sprintf("killed engine pid %d (%s) left running by dead campaign pid %d", r.PID, r.Command, r.Owner), nil
}

// reapStaleGroup kills what is left of a dead leader's process group:
// the processes in group r.PID started no earlier than it. The kernel
// hands out no pid that names a live group, so while the leader's pid is
// free (or its zombie holds it) they are its own; ReapStale has passed
// over a pid that runs another process now.
func reapStaleGroup(r PIDRecord) string {
	procs, err := listProcs()
	if err != nil {
		return ""
	}
	var left []string
	for _, p := range procs {
		if p.pgid == r.PID && !p.zombie && startMS(p.pid) >= r.StartMS {
			left = append(left, fmt.Sprintf("%d (%s)", p.pid, p.name))
		}
	}
	if len(left) == 0 || unix.Kill(-r.PID, unix.SIGKILL) != nil {
		return ""
	}
	return fmt.Sprintf("killed %d process(es) of pid %d's group (%s) left running by dead decodebench pid %d: %s", len(left), r.PID, r.Command, r.Owner, strings.Join(left, ", "))
}
