package engine

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/internal/execfile"
)

// filterKinds are the filters filterRepo configures, each writing its own
// marker: a submodule's own clean filter (its configuration is not the
// superproject's), a driver whose name holds '=' (clean and smudge), a
// long-running process filter, a driver whose name is empty.
var filterKinds = []string{"submodule", "eq", "process", "empty"}

// filterRepo makes a repository with a submodule whose filters, from
// configurations git's -c overrides used to miss, run a script that
// appends to dir/marker.<kind> for each of filterKinds; each file's
// modification time is then in the future, so that a status reads it
// through its filter again. git is run by gitT.
func filterRepo(t *testing.T, gitT func(dir string, args ...string)) (repo, dir string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir = t.TempDir()
	script := func(kind string) string {
		p := filepath.Join(dir, kind+".sh")
		body := "#!/bin/sh\necho \"$0 $*\" >> '" + filepath.Join(dir, "marker."+kind) + "'\ncat\n"
		if err := execfile.Write(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sub, repo := filepath.Join(dir, "subsrc"), filepath.Join(dir, "repo")
	for _, d := range []string{sub, repo} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		gitT(d, "init", "-q")
	}
	write(filepath.Join(sub, "s"), "s\n")
	write(filepath.Join(sub, ".gitattributes"), "* filter=evil\n")
	gitT(sub, "add", ".")
	gitT(sub, "commit", "-q", "-m", "sub")
	for _, f := range []string{"a", "p", "e"} {
		write(filepath.Join(repo, f), f+"\n")
	}
	write(filepath.Join(repo, ".gitattributes"), "a filter=x=y\np filter=proc\ne filter=\n")
	gitT(repo, "add", ".")
	gitT(repo, "commit", "-q", "-m", "one")
	gitT(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "sub")
	gitT(repo, "commit", "-q", "-m", "two")
	// Configured only after the commits, so that setting up ran nothing.
	gitT(filepath.Join(repo, "sub"), "config", "filter.evil.clean", script("submodule"))
	gitT(repo, "config", "filter.x=y.clean", script("eq"))
	gitT(repo, "config", "filter.x=y.smudge", script("eq"))
	gitT(repo, "config", "filter.proc.process", script("process"))
	gitT(repo, "config", "filter..clean", script("empty"))
	future := time.Now().Add(time.Hour)
	for _, f := range []string{"a", "p", "e", filepath.Join("sub", "s")} {
		os.Chtimes(filepath.Join(repo, f), future, future)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "marker.*")); len(m) > 0 {
		t.Fatalf("setting up the repository already ran %v", m)
	}
	return repo, dir
}

func filterGit(t *testing.T) func(dir string, args ...string) {
	return func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

// The engine source's identity runs none of the filters: not a
// submodule's, not one named "x=y" or "", not a process filter. What it
// reports is a clean checkout, with the note on submodules.
func TestIdentityRunsNoFilterOfAnyConfiguration(t *testing.T) {
	repo, dir := filterRepo(t, filterGit(t))
	id := Identify(context.Background(), "sh", os.Environ(), repo)
	if id.SourceCommit == "" || id.SourceDirty == nil || *id.SourceDirty {
		t.Errorf("identity of the source folder: %+v", id)
	}
	if !strings.Contains(strings.Join(id.Problems, "\n"), "has submodules") {
		t.Errorf("no word on the submodules: %q", id.Problems)
	}
	for _, k := range filterKinds {
		if b, err := os.ReadFile(filepath.Join(dir, "marker."+k)); err == nil {
			t.Errorf("git ran the %s filter: %s", k, b)
		}
	}
}

// A plain git status runs every one of them, so the test above can fail.
func TestFilterRepoIsHostile(t *testing.T) {
	repo, dir := filterRepo(t, filterGit(t))
	cmd := exec.Command("git", "-C", repo, "status", "--porcelain")
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1")
	cmd.Run()
	for _, k := range filterKinds {
		if _, err := os.Stat(filepath.Join(dir, "marker."+k)); err != nil {
			t.Errorf("a plain git status did not run the %s filter: the test repository proves nothing", k)
		}
	}
}

// A submodule checked out at another commit than the one recorded still
// makes the source dirty; a repository without submodules gets no note.
func TestIdentitySubmoduleAtAnotherCommitIsDirty(t *testing.T) {
	gitT := filterGit(t)
	repo, dir := filterRepo(t, gitT)
	sub := filepath.Join(repo, "sub")
	gitT(sub, "-c", "filter.evil.clean=", "commit", "-q", "--allow-empty", "-m", "moved")
	id := Identify(context.Background(), "sh", os.Environ(), repo)
	if id.SourceDirty == nil || !*id.SourceDirty {
		t.Errorf("a submodule at another commit is not dirty: %+v", id)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "marker.*")); len(m) > 0 {
		t.Errorf("git ran %v", m)
	}
	plain, _ := hostileRepo(t)
	if id := Identify(context.Background(), "sh", os.Environ(), plain); strings.Contains(strings.Join(id.Problems, "\n"), "submodule") {
		t.Errorf("problems of a repository without submodules: %q", id.Problems)
	}
}

func TestGitEnvKeysAreExact(t *testing.T) {
	env, err := GitEnv(nil, "filter.x=y.clean\x00filter..smudge\x00filter.a.b.process\x00decodebench.gitguard\x00")
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Join(env, "\n")
	for _, k := range []string{"filter.x=y.clean", "filter.x=y.process", "filter..smudge", "filter.a.b.required"} {
		if !strings.Contains(s, "="+k+"\n") {
			t.Errorf("no override of %s in\n%s", k, s)
		}
	}
	if _, err := GitEnv(nil, "filter.x.clean\x00"); err != ErrGitTooOld {
		t.Errorf("a listing without the guard: %v", err)
	}
}
