package engine

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// The file-hash cache is read through the guarded reader: a FIFO planted
// in its place is ignored at once (the model is hashed again) instead of
// hanging every campaign's identification.
func TestModelFilesIgnoresASpecialHashCache(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	if err := os.MkdirAll(filepath.Join(cache, "decodebench"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(cache, "decodebench", "file-hashes.json"), 0o600); err != nil {
		t.Fatal(err)
	}
	hashOneModel(t, "ModelFiles hung on a FIFO in place of its hash cache")
}

// hashOneModel runs ModelFiles on a one-file model within 10 s, failing
// with hung otherwise, and checks it hashed that file.
func hashOneModel(t *testing.T, hung string) {
	t.Helper()
	model := filepath.Join(t.TempDir(), "model.gguf")
	if err := os.WriteFile(model, []byte("weights"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan int, 1)
	go func() {
		files, _ := ModelFiles([]string{"engine", "-m", model})
		done <- len(files)
	}()
	select {
	case n := <-done:
		if n != 1 {
			t.Errorf("hashed %d model files, want 1", n)
		}
	case <-time.After(10 * time.Second):
		t.Fatal(hung)
	}
}
