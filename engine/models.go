package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/schema"
)

// ModelFiles hashes every regular file that an argument of the command
// (a bare path or the value of --flag=path) names, the binary itself
// excepted, in command-line order without repeats. Hashes are cached by
// absolute path, size and modification time, so a 100 GB model is read
// once, not every run; the cache lives in the user's cache folder and a
// missing or unwritable cache only costs a re-read.
func ModelFiles(args []string) ([]schema.ModelFile, []string) {
	var out []schema.ModelFile
	var problems []string
	seen := map[string]bool{}
	cache := loadHashCache()
	for i, a := range args {
		if i == 0 {
			continue
		}
		cand := a
		if strings.HasPrefix(a, "-") {
			_, v, ok := strings.Cut(a, "=")
			if !ok {
				continue
			}
			cand = v
		}
		if cand == "" || strings.Contains(cand, "${") {
			continue
		}
		fi, err := os.Stat(cand)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		abs, err := filepath.Abs(cand)
		if err != nil {
			continue
		}
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
		if seen[abs] {
			continue
		}
		seen[abs] = true
		sum, err := cache.sum(abs)
		if err != nil {
			problems = append(problems, fmt.Sprintf("hash %s: %v", cand, err))
			continue
		}
		out = append(out, schema.ModelFile{Arg: a, Path: abs, Bytes: fi.Size(), SHA256: sum})
	}
	cache.save()
	return out, problems
}

type hashEntry struct {
	// ID is the file as it was hashed: device, inode, size, modification
	// and change times (safefs.IdentityOf).
	ID safefs.ID `json:"id"`
	// Hashed is when the file was hashed (Unix nanoseconds).
	Hashed int64  `json:"hashed"`
	SHA256 string `json:"sha256"`
}

// hashRacyWindow: a file whose change time falls this close before it
// was hashed may have been written again within the same tick of a
// coarse clock; its entry is not trusted.
const hashRacyWindow = int64(time.Second)

type hashCache struct {
	path    string
	entries map[string]hashEntry
	dirty   bool
}

var cacheMu sync.Mutex

// maxHashCacheBytes bounds the file-hash cache read back (about 200 bytes
// an entry).
const maxHashCacheBytes = 16 << 20

func loadHashCache() *hashCache {
	c := &hashCache{entries: map[string]hashEntry{}}
	// The cache says which file has which hash: it is used only from a
	// folder of this user's own that no one else may write to (another
	// user could plant entries, or links, there), in no repository
	// (safefs.UserStateDir), else not at all.
	dir, err := safefs.UserStateDir("decodebench")
	if err != nil {
		return c
	}
	c.path = filepath.Join(dir, "file-hashes.json")
	cacheMu.Lock()
	defer cacheMu.Unlock()
	// Through the guarded reader: a cache grown past maxHashCacheBytes, or
	// one replaced by a FIFO or a device, is ignored (the files are hashed
	// again).
	if b, err := safefs.ReadNamed(c.path, maxHashCacheBytes); err == nil {
		_ = json.Unmarshal(b, &c.entries)
	}
	return c
}

// sum is the file's sha256, from the cache where its entry names the
// file as it is now, opened (safefs.ID: the same device, inode, size,
// modification and change time; an entry keyed on size and modification
// time alone gave the old hash to a file rewritten in place with its
// modification time set back), changed last at least hashRacyWindow
// before it was hashed; else read from that same open file.
func (c *hashCache) sum(path string) (string, error) {
	// A file swapped for a FIFO or a device since it was listed is
	// refused, not hung on.
	f, err := safefs.OpenNamed(path, -1)
	if err != nil {
		return "", err
	}
	defer f.Close()
	id, err := safefs.IdentityOf(f)
	if err != nil {
		return "", err
	}
	if e, ok := c.entries[path]; ok && e.ID == id && id.Ctime < e.Hashed-hashRacyWindow {
		return e.SHA256, nil
	}
	hashed := time.Now().UnixNano()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	s := hex.EncodeToString(h.Sum(nil))
	c.entries[path] = hashEntry{ID: id, Hashed: hashed, SHA256: s}
	c.dirty = true
	return s, nil
}

func (c *hashCache) save() {
	if !c.dirty || c.path == "" {
		return
	}
	cacheMu.Lock()
	defer cacheMu.Unlock()
	b, err := json.Marshal(c.entries)
	if err != nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(c.path), 0o755); err != nil {
		return
	}
	// Create-exclusive into a fresh temporary name, then renamed: a link
	// or FIFO planted at the cache's path (or at a fixed ".tmp" name) is
	// replaced, never written through or hung on.
	_ = safefs.WriteFile(c.path, b, 0o644)
}
