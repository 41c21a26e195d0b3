//go:build unix

package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A recorded tree runs nothing of its command before its record is
// written: a decodebench killed with SIGKILL in between (under load, the
// command's first instructions run before the parent is scheduled again)
// would otherwise leave a tree no record names, which no resume reaps.
// The pause between the start and the record stands for that load.
func TestRecordedTreeRunsNothingBeforeItsRecord(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "build-pid.json")
	afterTreeStart = func(int) { time.Sleep(300 * time.Millisecond) }
	defer func() { afterTreeStart = nil }()
	cmd := exec.Command("sh", "-c", `if test -f "$1"; then echo recorded; else echo early; fi; echo "args:$2:$3"; echo "exe:$(readlink /proc/$$/exe)"; echo "pid:$$"; cat "$1"`, "sh", pidFile, "a b", "")
	var out bytes.Buffer
	if _, err := RunTreeRecorded(context.Background(), cmd, &out, 10*time.Second, pidFile); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if got := out.String(); !strings.HasPrefix(got, "recorded\n") || !strings.Contains(got, "args:a b:\n") {
		t.Errorf("the command ran before its record was written, or lost its arguments: %q", got)
	}
	// The record names the process that ran the command, as it ran it
	// (its executable, once the gate had exec'd it), where /proc says.
	_, rest, _ := strings.Cut(out.String(), "exe:")
	exe, rest, _ := strings.Cut(rest, "\n")
	pid, rec, _ := strings.Cut(strings.TrimPrefix(rest, "pid:"), "\n")
	var r PIDRecord
	if err := json.Unmarshal([]byte(rec), &r); err != nil {
		t.Fatalf("record %q: %v", rec, err)
	}
	if strconv.Itoa(r.PID) != pid || (exe != "" && r.Exe != exe) || r.StartMS == 0 {
		t.Errorf("record %+v; the command ran as pid %s, executable %q", r, pid, exe)
	}
}
