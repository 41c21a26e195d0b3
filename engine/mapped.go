package engine

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/schema"
)

// What the engine really loaded: the shared objects its process tree has
// mapped while it runs (Linux: /proc/PID/maps; elsewhere lsof's list of
// the files each process has open or mapped), beside the candidates its
// identity finds from the binary (libraries.go). llama.cpp's ggml picks
// one CPU backend of the fourteen a Debian install carries, and a GPU
// backend where it finds a GPU: the one it loaded is the code that ran.

// sharedObject is a file name a loader maps as code: a .so (versioned or
// not), a .dylib, a Metal library (.metallib, MLX's among them), a macOS
// bundle's or framework's binary, or the dyld shared cache.
var sharedObject = regexp.MustCompile(`(\.so(\.[0-9]+)*|\.dylib|\.metallib)$|\.(bundle|framework)/|/dyld_shared_cache`)

// parseMaps reads /proc/PID/maps: the mapped files' paths, without
// repeats; a file deleted since it was mapped keeps its " (deleted)"
// suffix (it can no longer be hashed).
func parseMaps(b []byte) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		// address perms offset dev inode pathname; the path may hold
		// spaces, so everything after the fifth field.
		f := strings.Fields(sc.Text())
		if len(f) < 6 || !strings.HasPrefix(f[5], "/") {
			continue
		}
		line := sc.Text()
		i := strings.Index(line, f[5])
		out = append(out, line[i:])
	}
	return out
}

// parseLsof reads `lsof -F ftn` output: the names of the files each
// process has as program text or mapped memory (fd "txt", or "mem" as
// lsof on Linux says for a mapped library).
func parseLsof(b []byte) []string {
	var out []string
	fd := ""
	for _, line := range strings.Split(string(b), "\n") {
		if line == "" {
			continue
		}
		switch line[0] {
		case 'p':
			fd = ""
		case 'f':
			fd = line[1:]
		case 'n':
			if fd == "txt" || fd == "mem" {
				out = append(out, line[1:])
			}
		}
	}
	return out
}

// loadedObjects keeps the shared objects of what a process maps, sorted,
// without repeats.
func loadedObjects(paths []string) []string {
	var out []string
	for _, p := range paths {
		name := strings.TrimSuffix(p, " (deleted)")
		if sharedObject.MatchString(name) && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// Mapped returns the shared objects the engine's process tree has mapped
// now (loadedObjects of each member's mappings), and why a member could
// not be read.
func (s *Server) Mapped(ctx context.Context) ([]string, []string) {
	var all, problems []string
	pids := []int{s.Pid()}
	if s.tree != nil {
		for _, p := range s.tree.members() {
			if p.pid != s.Pid() && !p.zombie {
				pids = append(pids, p.pid)
			}
		}
	}
	for _, pid := range pids {
		paths, err := mappedFiles(ctx, pid)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		all = append(all, paths...)
	}
	return loadedObjects(all), problems
}

// HashLoaded hashes the loaded shared objects through the file-hash cache
// (models.go), each path with its links followed; one that cannot be
// hashed (deleted since it was mapped, unreadable) has an empty sha256.
func HashLoaded(paths []string) []schema.FileSum {
	cache := loadHashCache()
	defer cache.save()
	var out []schema.FileSum
	seen := map[string]bool{}
	for _, p := range paths {
		real := p
		if r, err := filepath.EvalSymlinks(p); err == nil {
			real = r
		}
		if seen[real] {
			continue
		}
		seen[real] = true
		sum := ""
		if fi, err := os.Stat(real); err == nil && fi.Mode().IsRegular() {
			sum, _ = cache.sum(real)
		}
		out = append(out, schema.FileSum{Path: real, SHA256: sum})
	}
	slices.SortFunc(out, func(a, b schema.FileSum) int { return strings.Compare(a.Path, b.Path) })
	return out
}
