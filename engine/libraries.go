package engine

import (
	"bufio"
	"bytes"
	"debug/elf"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/schema"
)

// The engine's kernels live in shared libraries (libllama, libggml and
// its CPU and GPU backends), not in the binary: two installs with the
// same binary and different libraries run different code. engineLibraries
// finds them without running anything (no ldd): the binary's ELF needed
// list, followed recursively, searched as the dynamic loader would (a
// wrapper's library path, LD_LIBRARY_PATH, the binary's RUNPATH, the
// usual folders), plus the ggml backends beside the libggml found, which
// ggml loads at run time.

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

// engineLibraries returns the engine's own shared libraries with their
// sha256, sorted by path; nil for a binary that is not ELF.
func engineLibraries(binary string, wrapperDirs []string, env []string) ([]schema.FileSum, []string) {
	var dirs []string
	dirs = append(dirs, wrapperDirs...)
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "LD_LIBRARY_PATH="); ok {
			dirs = append(dirs, filepath.SplitList(v)...)
		}
	}
	found := map[string]bool{}
	var problems []string
	var walk func(path string, depth int)
	walk = func(path string, depth int) {
		if depth > 8 {
			return
		}
		// A path a wrapper script names may be anything: only a
		// regular file is read (a FIFO would hang elf.Open).
		file, err := safefs.OpenNamed(path, -1)
		if err != nil {
			return
		}
		defer file.Close()
		f, err := elf.NewFile(file)
		if err != nil {
			return
		}
		needed, _ := f.DynString(elf.DT_NEEDED)
		run, _ := f.DynString(elf.DT_RUNPATH)
		if len(run) == 0 {
			run, _ = f.DynString(elf.DT_RPATH)
		}
		search := append([]string{}, dirs...)
		for _, r := range run {
			for _, d := range filepath.SplitList(r) {
				search = append(search, strings.ReplaceAll(d, "$ORIGIN", filepath.Dir(path)))
			}
		}
		search = append(search, "/lib", "/usr/lib", "/usr/local/lib", "/lib64", "/usr/lib64")
		for _, n := range needed {
			if !kernelLibrary(n) {
				continue
			}
			lib := ""
			for _, d := range search {
				if d == "" {
					continue
				}
				if st, err := os.Stat(filepath.Join(d, n)); err == nil && st.Mode().IsRegular() {
					lib = filepath.Join(d, n)
					break
				}
			}
			if lib == "" {
				problems = append(problems, "engine library "+n+" not found (searched as the loader would, without running it)")
				continue
			}
			real, err := filepath.EvalSymlinks(lib)
			if err != nil || found[real] {
				continue
			}
			found[real] = true
			walk(real, depth+1)
		}
	}
	walk(binary, 0)
	// ggml's backends, loaded at run time from beside libggml.
	for lib := range found {
		if !strings.HasPrefix(filepath.Base(lib), "libggml") {
			continue
		}
		dir := filepath.Dir(lib)
		matches, _ := filepath.Glob(filepath.Join(dir, "libggml-*.so"))
		more, _ := filepath.Glob(filepath.Join(dir, "ggml", "backends*", "libggml-*.so"))
		for _, m := range append(matches, more...) {
			if real, err := filepath.EvalSymlinks(m); err == nil {
				found[real] = true
			}
		}
	}
	var out []schema.FileSum
	for _, p := range slices.Sorted(maps.Keys(found)) {
		sum, err := fileSHA256(p)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		out = append(out, schema.FileSum{Path: p, SHA256: sum})
	}
	return out, problems
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
