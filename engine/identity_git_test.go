package engine

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/decodebench/decodebench/internal/execfile"
)

// hostileRepo makes a git repository whose configuration runs a script
// through fsmonitor, a hook and a clean filter; the script creates marker.
func hostileRepo(t *testing.T) (repo, marker string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	repo = filepath.Join(dir, "repo")
	marker = filepath.Join(dir, "pwned")
	script := filepath.Join(dir, "evil.sh")
	if err := execfile.Write(script, []byte("#!/bin/sh\necho \"$0 $*\" >> "+marker+"\ncat\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	run("init", "-q")
	if err := os.WriteFile(filepath.Join(repo, "f.txt"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run("add", "f.txt")
	run("commit", "-q", "-m", "x")
	// Configured only after the commit, so that setting up ran nothing.
	run("config", "core.fsmonitor", script)
	run("config", "core.hooksPath", dir)
	for _, h := range []string{"post-index-change", "reference-transaction"} {
		os.Symlink(script, filepath.Join(dir, h))
	}
	run("config", "filter.evil.clean", script)
	run("config", "filter.evil.process", script)
	if err := os.WriteFile(filepath.Join(repo, ".git", "info", "attributes"), []byte("* filter=evil\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A changed mtime makes status re-read the file through its filter.
	future := time.Now().Add(time.Hour)
	os.Chtimes(filepath.Join(repo, "f.txt"), future, future)
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("setting up the repository already ran the script")
	}
	return repo, marker
}

func TestGitRunsNothingTheRepositoryConfigures(t *testing.T) {
	repo, marker := hostileRepo(t)
	id := Identify(context.Background(), "sh", os.Environ(), repo)
	if id.SourceCommit == "" || id.SourceDirty == nil {
		t.Fatalf("identity of the source folder incomplete: %+v", id)
	}
	if b, err := os.ReadFile(marker); err == nil {
		t.Fatalf("git ran a command the repository configured: %s", b)
	}
}

// The hostile repository does run its script under a plain git status, so
// the test above can fail.
func TestHostileRepoIsHostile(t *testing.T) {
	repo, marker := hostileRepo(t)
	cmd := exec.Command("git", "-C", repo, "status", "--porcelain")
	cmd.Run()
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("a plain git status did not run the configured script: the test repository proves nothing")
	}
}

func TestFilterNames(t *testing.T) {
	got, _ := filterNames("filter.lfs.clean\x00filter.lfs.smudge\x00filter.a.b.process\x00core.x\x00")
	if len(got) != 2 || got[0] != "lfs" || got[1] != "a.b" {
		t.Fatalf("filterNames = %q", got)
	}
}
