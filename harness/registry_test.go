package harness

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The engine registry, whose pid files say which process is an engine a
// later campaign may stop, is per-user state: it is refused in a git work
// tree (a checked-out folder is the user's own, 0755, and a pid file
// committed there would name any process) and under a folder others may
// write; beside a private lock it is used.
func TestEngineRegistryIsPerUserState(t *testing.T) {
	ok := t.TempDir()
	t.Setenv("DECODEBENCH_LOCK", filepath.Join(ok, "host.lock"))
	if dir, err := engineRegistry(); err != nil || filepath.Dir(dir) != ok {
		t.Fatalf("beside a private lock: %s, %v", dir, err)
	}
	repo := t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DECODEBENCH_LOCK", filepath.Join(repo, "host.lock"))
	if dir, err := engineRegistry(); err == nil || !strings.Contains(err.Error(), "git work tree") {
		t.Errorf("in a repository: %s, %v", dir, err)
	}
	shared := filepath.Join(t.TempDir(), "shared")
	if err := os.Mkdir(shared, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(shared, 0o777); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DECODEBENCH_LOCK", filepath.Join(shared, "host.lock"))
	if dir, err := engineRegistry(); err == nil || !strings.Contains(err.Error(), "writable by others") {
		t.Errorf("under a folder others may write: %s, %v", dir, err)
	}
}
