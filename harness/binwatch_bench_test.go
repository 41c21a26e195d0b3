package harness

import (
	"crypto/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/internal/execfile"
)

// The check of an engine's files at every run start: a stat per file while
// nothing changed (the usual case), against hashing the file again. Sizes:
// a llama-server binary and its libllama (about 20 KB and 4 MB in Debian's
// packages), and a 100 MB statically linked build.
func BenchmarkEngineFileCheck(b *testing.B) {
	for _, size := range []struct {
		name  string
		bytes int
	}{{"20KB", 20 << 10}, {"4MB", 4 << 20}, {"100MB", 100 << 20}} {
		path := filepath.Join(b.TempDir(), "srv")
		buf := make([]byte, size.bytes)
		rand.Read(buf)
		if err := execfile.Write(path, buf, 0o755); err != nil {
			b.Fatal(err)
		}
		sum, _ := engine.FileSHA256(path)
		fi, _ := os.Stat(path)
		w := &watchedFile{path: path, sha256: sum, info: fi}
		b.Run("stat/"+size.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if err := w.check(); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("hash/"+size.name, func(b *testing.B) {
			b.SetBytes(int64(size.bytes))
			for i := 0; i < b.N; i++ {
				if _, err := engine.FileSHA256(path); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
