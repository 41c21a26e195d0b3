package engine

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// The file-hash cache is saved create-exclusive under a fresh temporary
// name and renamed into place: a link planted at the cache's path or at
// its old fixed ".tmp" name is replaced, its target left as it was, and a
// FIFO there is not hung on.
func TestModelFilesHashCacheSaveNotFollowed(t *testing.T) {
	for _, planted := range []string{"link", "tmp-link", "tmp-fifo"} {
		t.Run(planted, func(t *testing.T) {
			cache := t.TempDir()
			t.Setenv("XDG_CACHE_HOME", cache)
			dir := filepath.Join(cache, "decodebench")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "file-hashes.json")
			outside := filepath.Join(t.TempDir(), "victim")
			if err := os.WriteFile(outside, []byte("precious"), 0o644); err != nil {
				t.Fatal(err)
			}
			var err error
			switch planted {
			case "link":
				err = os.Symlink(outside, path)
			case "tmp-link":
				err = os.Symlink(outside, path+".tmp")
			case "tmp-fifo":
				err = syscall.Mkfifo(path+".tmp", 0o600)
			}
			if err != nil {
				t.Fatal(err)
			}
			hashOneModel(t, "ModelFiles hung saving its hash cache")
			if b, _ := os.ReadFile(outside); string(b) != "precious" {
				t.Errorf("the link's target was overwritten: %q", b)
			}
			if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
				t.Errorf("hash cache is not a regular file: %v", err)
			}
		})
	}
}

// The hash cache is used only from a folder no one else may write to: a
// planted entry giving a model a false hash, in a cache folder others can
// write to, is ignored and nothing is written there.
func TestModelFilesHashCacheNotUsedFromASharedFolder(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	dir := filepath.Join(cache, "decodebench")
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil { // past the umask
		t.Fatal(err)
	}
	model := filepath.Join(t.TempDir(), "model.gguf")
	if err := os.WriteFile(model, []byte("weights"), 0o644); err != nil {
		t.Fatal(err)
	}
	forged, _ := json.Marshal(map[string]hashEntry{model: trustedEntry(t, model, strings.Repeat("0", 64))})
	path := filepath.Join(dir, "file-hashes.json")
	if err := os.WriteFile(path, forged, 0o666); err != nil {
		t.Fatal(err)
	}
	files, _ := ModelFiles([]string{"engine", "-m", model})
	if len(files) != 1 {
		t.Fatalf("ModelFiles: %v", files)
	}
	if files[0].SHA256 == strings.Repeat("0", 64) {
		t.Errorf("the planted hash was used: %+v", files[0])
	}
	if b, _ := os.ReadFile(path); string(b) != string(forged) {
		t.Error("the cache in a shared folder was written")
	}
}

// Nor from a folder in a git work tree, the user's own with mode 0755 as
// a checkout makes it, nor from the working folder when the user has no
// cache folder: a hash committed there is never a model's.
func TestModelFilesHashCacheNotUsedFromARepository(t *testing.T) {
	model := filepath.Join(t.TempDir(), "model.gguf")
	if err := os.WriteFile(model, []byte("weights"), 0o644); err != nil {
		t.Fatal(err)
	}
	forged, _ := json.Marshal(map[string]hashEntry{model: trustedEntry(t, model, strings.Repeat("0", 64))})
	repo := t.TempDir()
	for _, d := range []string{".git", ".cache/decodebench"} {
		if err := os.MkdirAll(filepath.Join(repo, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(repo, ".cache", "decodebench", "file-hashes.json"), forged, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(repo)
	for _, env := range [][2]string{{"XDG_CACHE_HOME", filepath.Join(repo, ".cache")}, {"HOME", "."}, {"HOME", ""}} {
		t.Setenv("XDG_CACHE_HOME", "")
		t.Setenv("HOME", "")
		t.Setenv(env[0], env[1])
		files, _ := ModelFiles([]string{"engine", "-m", model})
		if len(files) != 1 || files[0].SHA256 == strings.Repeat("0", 64) {
			t.Errorf("%s=%q: the planted hash was used: %+v", env[0], env[1], files)
		}
	}
}
