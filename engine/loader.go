package engine

import (
	"bufio"
	"bytes"
	"debug/elf"
	"debug/macho"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/decodebench/decodebench/internal/safefs"
)

// loader finds the engine libraries the dynamic loader would map for a
// binary started with env, without running it: glibc's ld.so for ELF
// (DT_RPATH, LD_LIBRARY_PATH, DT_RUNPATH, ld.so.conf's folders, the usual
// folders; LD_PRELOAD), dyld for Mach-O (DYLD_LIBRARY_PATH by leaf name,
// the install name with @rpath, @loader_path and @executable_path,
// DYLD_FALLBACK_LIBRARY_PATH; DYLD_INSERT_LIBRARIES), and ggml's
// GGML_BACKEND_PATH. The ld.so cache is not read: the folders it was
// built from are.
type loader struct {
	exe string
	// libPath is LD_LIBRARY_PATH, or the library path a wrapper script
	// gives its loader, which replaces it.
	libPath                []string
	confDirs               []string
	dyldPath, dyldFallback []string
	env                    []string
	exeRpaths              []string
	found                  map[string]bool
	problems               []string
}

// elfDefaults are the folders ld.so searches last.
var elfDefaults = []string{"/lib", "/usr/lib", "/usr/local/lib", "/lib64", "/usr/lib64"}

// ldSoConfPath is the loader's configuration, whose folders ldconfig
// caches (the multiarch ones among them): searched after DT_RUNPATH.
var ldSoConfPath = "/etc/ld.so.conf"

// ldSoConf is the folders ld.so.conf names, its includes followed (the
// cache ldconfig builds from them is not read).
func ldSoConf() []string {
	var dirs []string
	seen := map[string]bool{}
	var read func(path string, depth int)
	read = func(path string, depth int) {
		if depth > 4 || seen[path] {
			return
		}
		seen[path] = true
		f, err := safefs.OpenNamed(path, 1<<20)
		if err != nil {
			return
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			line, _, _ := strings.Cut(sc.Text(), "#")
			line = strings.TrimSpace(line)
			if rest, ok := strings.CutPrefix(line, "include"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
				pattern := strings.TrimSpace(rest)
				if !filepath.IsAbs(pattern) {
					pattern = filepath.Join(filepath.Dir(path), pattern)
				}
				matches, _ := filepath.Glob(pattern)
				for _, m := range matches {
					read(m, depth+1)
				}
				continue
			}
			if filepath.IsAbs(line) {
				dirs = append(dirs, line)
			}
		}
	}
	read(ldSoConfPath, 0)
	return dirs
}

// dyldFallbackDefault is DYLD_FALLBACK_LIBRARY_PATH when it is not set.
var dyldFallbackDefault = []string{"/usr/local/lib", "/usr/lib"}

func newLoader(binary string, wrapperDirs, env []string) *loader {
	l := &loader{exe: binary, env: env, found: map[string]bool{}, confDirs: ldSoConf()}
	list := func(name string) ([]string, bool) {
		v, ok := Getenv(env, name)
		if !ok || v == "" {
			return nil, false
		}
		return filepath.SplitList(v), true
	}
	if wrapperDirs != nil {
		l.libPath = wrapperDirs
	} else {
		l.libPath, _ = list("LD_LIBRARY_PATH")
	}
	l.dyldPath, _ = list("DYLD_LIBRARY_PATH")
	var ok bool
	if l.dyldFallback, ok = list("DYLD_FALLBACK_LIBRARY_PATH"); !ok {
		l.dyldFallback = dyldFallbackDefault
	}
	return l
}

// walk follows the needed libraries of the object at path.
func (l *loader) walk(path string, depth int) {
	if depth > 8 {
		return
	}
	// A path a wrapper script or the environment names may be anything:
	// only a regular file is read (a FIFO would hang the parser).
	file, err := safefs.OpenNamed(path, -1)
	if err != nil {
		return
	}
	defer file.Close()
	if f, err := elf.NewFile(file); err == nil {
		l.walkELF(path, f, depth)
		return
	}
	if f, err := macho.NewFile(file); err == nil {
		l.walkMachO(path, f, depth)
		return
	}
	if fat, err := macho.NewFatFile(file); err == nil && len(fat.Arches) > 0 {
		arch := fat.Arches[0]
		for _, a := range fat.Arches {
			if (a.Cpu == macho.CpuArm64 && runtime.GOARCH == "arm64") || (a.Cpu == macho.CpuAmd64 && runtime.GOARCH == "amd64") {
				arch = a
			}
		}
		l.walkMachO(path, arch.File, depth)
	}
}

// add records a library found (its links followed) and walks it.
func (l *loader) add(lib string, depth int) {
	real, err := filepath.EvalSymlinks(lib)
	if err != nil || l.found[real] {
		return
	}
	l.found[real] = true
	l.walk(real, depth+1)
}

func (l *loader) notFound(name string) {
	l.problems = append(l.problems, "engine library "+name+" not found (searched as the loader would, without running it)")
}

func (l *loader) walkELF(path string, f *elf.File, depth int) {
	dyn := dynStrings(f)
	needed, runpath := dyn[elf.DT_NEEDED], dyn[elf.DT_RUNPATH]
	var rpath []string
	if len(runpath) == 0 {
		rpath = dyn[elf.DT_RPATH]
	}
	origin := func(list []string) []string {
		var out []string
		for _, r := range list {
			for _, d := range filepath.SplitList(r) {
				d = strings.ReplaceAll(d, "${ORIGIN}", filepath.Dir(path))
				out = append(out, strings.ReplaceAll(d, "$ORIGIN", filepath.Dir(path)))
			}
		}
		return out
	}
	search := append(append(append(append(origin(rpath), l.libPath...), origin(runpath)...), l.confDirs...), elfDefaults...)
	for _, n := range needed {
		if !kernelLibrary(filepath.Base(n)) {
			continue
		}
		if lib := locate(n, search); lib == "" {
			l.notFound(n)
		} else {
			l.add(lib, depth)
		}
	}
}

// dynStrings reads an ELF file's dynamic section once: its NEEDED,
// RUNPATH and RPATH strings (elf.File.DynString reads the section and its
// string table again for each tag).
func dynStrings(f *elf.File) map[elf.DynTag][]string {
	ds := f.SectionByType(elf.SHT_DYNAMIC)
	if ds == nil || int(ds.Link) >= len(f.Sections) {
		return nil
	}
	d, err := ds.Data()
	if err != nil {
		return nil
	}
	str, err := f.Sections[ds.Link].Data()
	if err != nil {
		return nil
	}
	size := 16
	if f.Class == elf.ELFCLASS32 {
		size = 8
	}
	out := map[elf.DynTag][]string{}
	for ; len(d) >= size; d = d[size:] {
		var tag elf.DynTag
		var val uint64
		if size == 16 {
			tag, val = elf.DynTag(f.ByteOrder.Uint64(d[0:8])), f.ByteOrder.Uint64(d[8:16])
		} else {
			tag, val = elf.DynTag(f.ByteOrder.Uint32(d[0:4])), uint64(f.ByteOrder.Uint32(d[4:8]))
		}
		if tag == elf.DT_NULL {
			break
		}
		if (tag == elf.DT_NEEDED || tag == elf.DT_RUNPATH || tag == elf.DT_RPATH) && val < uint64(len(str)) {
			s := str[val:]
			if i := bytes.IndexByte(s, 0); i >= 0 {
				out[tag] = append(out[tag], string(s[:i]))
			}
		}
	}
	return out
}

func (l *loader) walkMachO(path string, f *macho.File, depth int) {
	var rpaths []string
	for _, ld := range f.Loads {
		if r, ok := ld.(*macho.Rpath); ok {
			rpaths = append(rpaths, l.machoPath(r.Path, path))
		}
	}
	if depth == 0 {
		l.exeRpaths = rpaths
	}
	// @rpath is searched along the loading image's run paths, then its
	// loaders' (the executable's, here).
	rpaths = append(rpaths, l.exeRpaths...)
	libs, _ := f.ImportedLibraries()
	for _, n := range libs {
		if !kernelLibrary(filepath.Base(n)) {
			continue
		}
		if lib := l.dyldFind(n, path, rpaths); lib != "" {
			l.add(lib, depth)
		} else {
			l.notFound(n)
		}
	}
}

// dyldFind is where dyld finds install name n loaded by the image at
// loaderPath: DYLD_LIBRARY_PATH by the name's leaf, the name itself (its
// @rpath along rpaths), DYLD_FALLBACK_LIBRARY_PATH by leaf.
func (l *loader) dyldFind(n, loaderPath string, rpaths []string) string {
	leaf := filepath.Base(n)
	if lib := firstFile(leaf, l.dyldPath); lib != "" {
		return lib
	}
	if rest, ok := strings.CutPrefix(n, "@rpath/"); ok {
		if lib := firstFile(rest, rpaths); lib != "" {
			return lib
		}
	} else if p := l.machoPath(n, loaderPath); isFile(p) {
		return p
	}
	return firstFile(leaf, l.dyldFallback)
}

// machoPath expands @loader_path and @executable_path.
func (l *loader) machoPath(p, loaderPath string) string {
	if rest, ok := strings.CutPrefix(p, "@loader_path"); ok {
		return filepath.Dir(loaderPath) + rest
	}
	if rest, ok := strings.CutPrefix(p, "@executable_path"); ok {
		return filepath.Dir(l.exe) + rest
	}
	return p
}

// injected records what the environment loads into the engine beside
// its needed libraries: LD_PRELOAD's and DYLD_INSERT_LIBRARIES' objects
// (any object: it is code in the engine's process) and the backend
// GGML_BACKEND_PATH names.
func (l *loader) injected() {
	var names []string
	if v, ok := Getenv(l.env, "LD_PRELOAD"); ok {
		names = append(names, strings.FieldsFunc(v, func(r rune) bool { return r == ':' || r == ' ' })...)
	}
	if v, ok := Getenv(l.env, "DYLD_INSERT_LIBRARIES"); ok {
		names = append(names, filepath.SplitList(v)...)
	}
	if v, ok := Getenv(l.env, "GGML_BACKEND_PATH"); ok && v != "" {
		names = append(names, v)
	}
	for _, n := range names {
		if n == "" {
			continue
		}
		lib := locate(n, append(append([]string{}, l.libPath...), elfDefaults...))
		if lib == "" {
			l.problems = append(l.problems, "library "+n+" the environment loads into the engine not found")
			continue
		}
		l.add(lib, 0)
	}
}

// locate is where ld.so finds name: the path itself when it has a slash,
// else the first of dirs holding it.
func locate(name string, dirs []string) string {
	if !strings.Contains(name, "/") {
		return firstFile(name, dirs)
	}
	if isFile(name) {
		return name
	}
	return ""
}

// firstFile is the file name names in the first folder of dirs that
// holds a regular file of that name; empty when none does.
func firstFile(name string, dirs []string) string {
	for _, d := range dirs {
		if d == "" {
			continue
		}
		if p := filepath.Join(d, name); isFile(p) {
			return p
		}
	}
	return ""
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}
