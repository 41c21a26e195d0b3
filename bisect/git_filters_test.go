package bisect

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/decodebench/decodebench/internal/execfile"
)

// filterKinds are the smudge filters filterRepo configures, each writing
// its own marker: a driver whose name holds '=', a long-running process
// filter, a driver whose name is empty, a submodule's own filter, and a
// driver defined in a file the repository's configuration includes only
// for a worktree's git folder.
var filterKinds = []string{"eq", "process", "empty", "submodule", "worktree"}

// filterRepo makes a repository of three commits, each changing every
// file, whose files a checkout passes through filters from
// configurations git's -c overrides used to miss; each runs a script that
// appends to dir/marker.<kind>.
func filterRepo(t *testing.T) (repo, dir string) {
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
		gitT(t, d, "init", "-q", "-b", "main")
	}
	write(filepath.Join(sub, "s"), "s\n")
	write(filepath.Join(sub, ".gitattributes"), "* filter=evil\n")
	gitT(t, sub, "add", ".")
	gitT(t, sub, "commit", "-q", "-m", "sub")
	write(filepath.Join(repo, ".gitattributes"), "a filter=x=y\np filter=proc\ne filter=\nw filter=wt\n")
	for i, c := range []string{"one", "two", "three"} {
		for _, f := range []string{"a", "p", "e", "w"} {
			write(filepath.Join(repo, f), f+c+"\n")
		}
		gitT(t, repo, "add", ".")
		if i == 1 {
			gitT(t, repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "sub")
		}
		gitT(t, repo, "commit", "-q", "-m", c)
	}
	// Configured only after the commits, so that setting up ran nothing.
	gitT(t, filepath.Join(repo, "sub"), "config", "filter.evil.smudge", script("submodule"))
	gitT(t, filepath.Join(repo, "sub"), "config", "filter.evil.clean", script("submodule"))
	gitT(t, repo, "config", "filter.x=y.clean", script("eq"))
	gitT(t, repo, "config", "filter.x=y.smudge", script("eq"))
	gitT(t, repo, "config", "filter.proc.process", script("process"))
	gitT(t, repo, "config", "filter..smudge", script("empty"))
	wt := filepath.Join(dir, "worktree.cfg")
	write(wt, "[filter \"wt\"]\n\tsmudge = "+script("worktree")+"\n")
	gitT(t, repo, "config", "includeIf.gitdir:**/worktrees/**.path", wt)
	if m, _ := filepath.Glob(filepath.Join(dir, "marker.*")); len(m) > 0 {
		t.Fatalf("setting up the repository already ran %v", m)
	}
	return repo, dir
}

// Every git call a bisect makes on such a repository (resolving, listing
// the range, adding, listing and removing a worktree) runs none of the
// filters, and the worktree's files are as committed.
func TestGitRunsNoFilterOfAnyConfiguration(t *testing.T) {
	repo, dir := filterRepo(t)
	ctx := context.Background()
	good, err := resolve(ctx, repo, "HEAD~2")
	if err != nil {
		t.Fatal(err)
	}
	bad, err := resolve(ctx, repo, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if cs, err := rangeCommits(ctx, repo, good, bad); err != nil || len(cs) != 2 {
		t.Fatalf("range %v: %v", cs, err)
	}
	w := filepath.Join(t.TempDir(), "w")
	if err := addWorktree(ctx, repo, w, bad); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(w, "a")); err != nil || string(b) != "athree\n" {
		t.Errorf("the worktree's file reads %q (%v), want it as committed", b, err)
	}
	if !registeredWorktree(ctx, repo, w, bad) {
		t.Errorf("the worktree %s is not listed", w)
	}
	if err := removeWorktree(ctx, repo, w); err != nil {
		t.Fatal(err)
	}
	for _, k := range filterKinds {
		if b, err := os.ReadFile(filepath.Join(dir, "marker."+k)); err == nil {
			t.Errorf("git ran the %s filter: %s", k, b)
		}
	}
}

// A plain checkout runs the superproject's filters, and a plain status in
// the submodule its own, so the test above can fail.
func TestFilterRepoIsHostile(t *testing.T) {
	repo, dir := filterRepo(t)
	w := filepath.Join(t.TempDir(), "w")
	exec.Command("git", "-C", repo, "worktree", "add", "--detach", w, "HEAD").Run()
	os.Chtimes(filepath.Join(repo, "sub", "s"), time.Now().Add(time.Hour), time.Now().Add(time.Hour))
	exec.Command("git", "-C", repo, "status", "--porcelain").Run()
	for _, k := range filterKinds {
		if _, err := os.Stat(filepath.Join(dir, "marker."+k)); err != nil {
			t.Errorf("plain git did not run the %s filter: the test repository proves nothing", k)
		}
	}
}

// A plain folder inside the user's checkout where a step's worktree would
// go is not taken for the worktree: the user's uncommitted change stays.
func TestAddWorktreeLeavesTheCheckoutAround(t *testing.T) {
	repo := t.TempDir()
	gitT(t, repo, "init", "-q", "-b", "main")
	f := filepath.Join(repo, "f")
	if err := os.WriteFile(f, []byte("committed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitT(t, repo, "add", ".")
	gitT(t, repo, "commit", "-q", "-m", "one")
	if err := os.WriteFile(f, []byte("uncommitted work\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	head, err := resolve(ctx, repo, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(repo, "work", "step-1")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "x"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	_ = addWorktree(ctx, repo, dir, head)
	if b, _ := os.ReadFile(f); string(b) != "uncommitted work\n" {
		t.Errorf("the user's file reads %q after addWorktree", b)
	}
}
