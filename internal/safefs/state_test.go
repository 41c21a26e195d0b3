package safefs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A state folder is made (0700, with the folders above it) under folders
// no one else may write, a sticky one excepted, and refused in a git work
// tree, under a folder others may write, or at a link.
func TestStateDir(t *testing.T) {
	root := t.TempDir()
	ok := filepath.Join(root, "home", ".cache", "decodebench", "check")
	if err := StateDir(ok); err != nil {
		t.Fatalf("a fresh folder under the user's own: %v", err)
	}
	if st, err := os.Stat(ok); err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("made %v (%v), want 0700", st.Mode(), err)
	}
	sticky := filepath.Join(root, "tmp")
	mkdirMode(t, sticky, 0o777|os.ModeSticky)
	if err := StateDir(filepath.Join(sticky, "mine")); err != nil {
		t.Errorf("under a sticky folder: %v", err)
	}

	repo := filepath.Join(root, "repo")
	mkdirMode(t, filepath.Join(repo, ".git"), 0o755)
	// A folder checked out of the repository: the user's own, 0755.
	committed := filepath.Join(repo, ".cache", "decodebench", "check")
	mkdirMode(t, committed, 0o755)
	linked := filepath.Join(root, "linked")
	mkdirMode(t, filepath.Join(linked, "sub"), 0o755)
	if err := os.WriteFile(filepath.Join(linked, ".git"), []byte("gitdir: /elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	shared := filepath.Join(root, "shared")
	mkdirMode(t, shared, 0o777)
	link := filepath.Join(root, "link")
	if err := os.Symlink(ok, link); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ dir, want string }{
		{committed, "inside the git work tree " + repo},
		{filepath.Join(repo, "new"), "inside the git work tree " + repo},
		{repo, "is a git work tree"},
		{filepath.Join(linked, "sub", "cache"), "inside the git work tree " + linked},
		{filepath.Join(shared, "cache"), shared + " is writable by others (mode 0777) and not sticky"},
		{filepath.Join(shared, "a", "b"), shared + " is writable by others"},
		{link, "symbolic link"},
	} {
		err := StateDir(c.dir)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.dir, err, c.want)
		}
	}
	// Through a link above it, the folders the link leads to are judged.
	viaLink := filepath.Join(root, "via")
	if err := os.Symlink(repo, viaLink); err != nil {
		t.Fatal(err)
	}
	if err := StateDir(filepath.Join(viaLink, "cache")); err == nil || !strings.Contains(err.Error(), "git work tree") {
		t.Errorf("a repository reached through a link: %v", err)
	}
}

// The user's cache folder is os.UserCacheDir's, never the working folder:
// with $HOME and $XDG_CACHE_HOME unset, or $HOME relative, there is none.
func TestUserStateDir(t *testing.T) {
	wd := t.TempDir()
	t.Chdir(wd)
	for _, env := range [][2]string{{"", ""}, {".", ""}, {"home", ""}} {
		t.Setenv("HOME", env[0])
		t.Setenv("XDG_CACHE_HOME", env[1])
		if dir, err := UserStateDir("decodebench", "check"); err == nil {
			t.Errorf("HOME=%q: state folder %s", env[0], dir)
		}
		if _, err := os.Stat(filepath.Join(wd, ".cache")); err == nil {
			t.Errorf("HOME=%q: a .cache made in the working folder", env[0])
		}
	}
	t.Setenv("XDG_CACHE_HOME", filepath.Join(wd, "xdg"))
	dir, err := UserStateDir("decodebench", "check")
	if err != nil || dir != filepath.Join(wd, "xdg", "decodebench", "check") {
		t.Errorf("got %s, %v", dir, err)
	}
}

func mkdirMode(t *testing.T, dir string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, mode); err != nil {
		t.Fatal(err)
	}
}
