// Package committed gives tests the repository's committed records
// (docs/benchmark_results): real records and their data folders, copied
// into a test's own folder so that a test may change them.
package committed

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir is the committed records' folder, found from the test's working
// directory (its package's folder) up to the module's root.
func Dir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "docs", "benchmark_results")
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("committed: no go.mod above the test's folder")
		}
		dir = up
	}
}

// Copy copies the committed records names (file stems) and their data
// folders into a new temporary folder, and returns it.
func Copy(t testing.TB, names ...string) string {
	t.Helper()
	dst := t.TempDir()
	CopyInto(t, dst, names...)
	return dst
}

// CopyInto copies the committed records names and their data folders
// into dst (under dst/data), making dst when it is not there.
func CopyInto(t testing.TB, dst string, names ...string) {
	t.Helper()
	src := Dir(t)
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(src, n+".md"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, n+".md"), b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.CopyFS(filepath.Join(dst, "data", n), os.DirFS(filepath.Join(src, "data", n))); err != nil {
			t.Fatal(err)
		}
	}
}

// Records are the committed records' files (the index's README left out);
// a checkout with fewer than ten fails the test, which reads them all.
func Records(t testing.TB) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(Dir(t), "*-20*.md"))
	if err != nil || len(paths) < 10 {
		t.Fatalf("committed: %d records in %s (%v)", len(paths), Dir(t), err)
	}
	return paths
}
