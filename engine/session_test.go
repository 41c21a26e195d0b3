//go:build unix

package engine

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// An engine runs in a session of its own: a process may join only a
// process group of its own session, and a grandchild that joined
// decodebench's group (setpgid to its parent's parent's group) was neither
// in the engine's group nor found as adopted, and outlived the campaign.
// A real command engine: its session is its own pid, not decodebench's,
// and a process of it cannot move into decodebench's group.
func TestEngineRunsInItsOwnSession(t *testing.T) {
	mine, err := unix.Getsid(0)
	if err != nil {
		t.Fatal(err)
	}
	group := unix.Getpgrp()
	var sid, pid int
	var joinErr error
	cfg := CommandConfig{Command: []string{"sh", "-c", "sleep 0.5"}, LogPath: filepath.Join(t.TempDir(), "e.log"), Label: "measured", Timeout: time.Minute,
		OnStart: func(p int) {
			pid = p
			sid, _ = unix.Getsid(p)
			joinErr = unix.Setpgid(p, group) // what the engine's process would ask for itself
		}}
	if _, err := RunCommand(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	if sid != pid || sid == mine {
		t.Errorf("the engine (pid %d) runs in session %d, decodebench in %d", pid, sid, mine)
	}
	if joinErr == nil {
		t.Errorf("a process of the engine moved into decodebench's group %d", group)
	}
}
