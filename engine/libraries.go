package engine

import (
	"bufio"
	"bytes"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/schema"
)

// The engine's kernels live in shared libraries (libllama, libggml and
// its CPU and GPU backends), not in the binary: two installs with the
// same binary and different libraries run different code. libraryPaths
// finds them without running anything (no ldd): the binary's needed list,
// followed recursively, searched as the dynamic loader would with the
// engine's own environment (loader.go), plus the ggml backends beside the
// libggml found, which ggml loads at run time, the backend
// GGML_BACKEND_PATH names and the objects LD_PRELOAD (DYLD_INSERT_LIBRARIES)
// injects.

// LibraryPathMarker is the comment line by which a wrapper script names
// the library folders it runs its binary with, colon-separated, relative
// to the wrapper's folder or absolute.
const LibraryPathMarker = "# decodebench-library-path: "

// kernelLibrary reports whether a library's name is one of the engine's
// own: llama.cpp's and ggml's.
func kernelLibrary(name string) bool {
	for _, p := range []string{"libllama", "libggml", "libmtmd"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// hashLibraries hashes the libraries libraryPaths found.
func hashLibraries(paths []string) ([]schema.FileSum, []string) {
	var out []schema.FileSum
	var problems []string
	for _, p := range paths {
		sum, err := fileSHA256(p)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		out = append(out, schema.FileSum{Path: p, SHA256: sum})
	}
	return out, problems
}

// libraryPaths returns the engine's own shared libraries, each with its
// links followed, sorted; none for a binary that is neither ELF nor
// Mach-O.
func libraryPaths(binary string, wrapperDirs []string, env []string) ([]string, []string) {
	l := newLoader(binary, wrapperDirs, env)
	l.walk(binary, 0)
	l.injected()
	// ggml's backends, loaded at run time from beside libggml.
	for lib := range maps.Clone(l.found) {
		if !strings.HasPrefix(filepath.Base(lib), "libggml") {
			continue
		}
		dir := filepath.Dir(lib)
		var matches []string
		for _, ext := range []string{".so", ".dylib"} {
			m, _ := filepath.Glob(filepath.Join(dir, "libggml-*"+ext))
			more, _ := filepath.Glob(filepath.Join(dir, "ggml", "backends*", "libggml-*"+ext))
			matches = append(append(matches, m...), more...)
		}
		for _, m := range matches {
			if real, err := filepath.EvalSymlinks(m); err == nil {
				l.found[real] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(l.found)), l.problems
}

// wrapperMarkers reads the wrapper script's markers: the binary it runs
// and its library folders, each resolved against the wrapper's folder
// when relative (a wrapper that names its files relative to itself is
// the same file in every clone). Both empty when path is no such script.
func wrapperMarkers(path string) (string, []string) {
	f, err := safefs.OpenNamed(path, -1)
	if err != nil {
		return "", nil
	}
	defer f.Close()
	head := make([]byte, 2)
	if _, err := io.ReadFull(f, head); err != nil || !bytes.Equal(head, []byte("#!")) {
		return "", nil
	}
	resolve := func(p string) string {
		p = strings.TrimSpace(p)
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Clean(filepath.Join(filepath.Dir(path), p))
	}
	real := ""
	var dirs, old []string
	sc := bufio.NewScanner(io.LimitReader(f, 64<<10))
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), RealBinaryMarker); ok && real == "" {
			real = resolve(rest)
		}
		if rest, ok := strings.CutPrefix(sc.Text(), LibraryPathMarker); ok && dirs == nil {
			for _, d := range strings.Split(rest, ":") {
				if d = resolve(d); d != "" {
					dirs = append(dirs, d)
				}
			}
		}
		// A wrapper written before the marker: its loader's absolute
		// --library-path "…".
		if _, rest, ok := strings.Cut(sc.Text(), `--library-path "`); ok && old == nil {
			if v, _, ok := strings.Cut(rest, `"`); ok && !strings.Contains(v, "$") {
				old = filepath.SplitList(v)
			}
		}
	}
	if dirs == nil {
		dirs = old
	}
	return real, dirs
}
