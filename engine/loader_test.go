package engine

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/internal/execfile"
)

// compiledEngine compiles name, a binary needing libllama.so, its dynamic section
// given by ldflags, and the copies of the library named (each says which
// it is). It skips without a C compiler.
func compiledEngine(t *testing.T, dir, name string, ldflags []string, copies ...string) string {
	t.Helper()
	compiler, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no C compiler")
	}
	run := func(args ...string) {
		t.Helper()
		if out, err := exec.Command(compiler, args...).CombinedOutput(); err != nil {
			t.Fatalf("cc %v: %v\n%s", args, err, out)
		}
	}
	for _, c := range copies {
		src := filepath.Join(dir, c+".c")
		os.WriteFile(src, []byte(`const char *llama_which(void) { return "`+c+`"; }`+"\n"), 0o644)
		os.MkdirAll(filepath.Join(dir, c), 0o755)
		run("-shared", "-fPIC", "-o", filepath.Join(dir, c, "libllama.so"), src)
	}
	main := filepath.Join(dir, "main.c")
	os.WriteFile(main, []byte("#include <stdio.h>\nconst char *llama_which(void);\nint main(void) { printf(\"%s\\n\", llama_which()); return 0; }\n"), 0o644)
	bin := filepath.Join(dir, name)
	run(append([]string{"-o", bin, main, "-L" + filepath.Join(dir, copies[0]), "-lllama"}, ldflags...)...)
	return bin
}

// What the identity resolves as the engine's library is what the real
// loader loads, in every environment: DT_RPATH before LD_LIBRARY_PATH,
// LD_LIBRARY_PATH before DT_RUNPATH, LD_PRELOAD's object as well.
func TestLibrariesAreWhatTheLoaderLoads(t *testing.T) {
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "a"), filepath.Join(dir, "b"), filepath.Join(dir, "c")
	plain := compiledEngine(t, dir, "plain", nil, "a", "b", "c")
	rpath := compiledEngine(t, dir, "rpath", []string{"-Wl,--disable-new-dtags,-rpath," + a}, "a")
	runpath := compiledEngine(t, dir, "runpath", []string{"-Wl,--enable-new-dtags,-rpath," + a}, "a")
	for _, tc := range []struct {
		bin  string
		env  []string
		want string // the copy loaded
	}{
		{plain, []string{"LD_LIBRARY_PATH=" + b}, "b"},
		{plain, []string{"LD_LIBRARY_PATH=" + c + ":" + b}, "c"},
		{rpath, []string{"LD_LIBRARY_PATH=" + b}, "a"},
		{runpath, []string{"LD_LIBRARY_PATH=" + b}, "b"},
		{runpath, nil, "a"},
	} {
		env := append(os.Environ(), tc.env...)
		out, err := (&exec.Cmd{Path: tc.bin, Args: []string{tc.bin}, Env: env}).Output()
		if err != nil || strings.TrimSpace(string(out)) != tc.want {
			t.Fatalf("%s %q printed %q (%v), want %q", filepath.Base(tc.bin), tc.env, out, err, tc.want)
		}
		x, err := Resolve(tc.bin, env)
		want := filepath.Join(dir, tc.want, "libllama.so")
		if err != nil || !slices.Equal(x.Libraries, []string{want}) {
			t.Errorf("%s %q: libraries %q (%v, problems %q), want %s", filepath.Base(tc.bin), tc.env, x.Libraries, err, x.Problems, want)
		}
	}
	// LD_PRELOAD's object and GGML_BACKEND_PATH's backend are in the
	// engine too, and recorded.
	preload := filepath.Join(c, "libllama.so")
	x, _ := Resolve(runpath, append(os.Environ(), "LD_PRELOAD="+preload))
	out, _ := (&exec.Cmd{Path: runpath, Args: []string{runpath}, Env: append(os.Environ(), "LD_PRELOAD="+preload)}).Output()
	if strings.TrimSpace(string(out)) != "c" || !slices.Contains(x.Libraries, preload) {
		t.Errorf("LD_PRELOAD: printed %q, libraries %q", out, x.Libraries)
	}
	x, _ = Resolve(runpath, append(os.Environ(), "GGML_BACKEND_PATH="+filepath.Join(b, "libllama.so")))
	if !slices.Contains(x.Libraries, filepath.Join(b, "libllama.so")) {
		t.Errorf("GGML_BACKEND_PATH: libraries %q", x.Libraries)
	}
	// Identify hashes the copy of its environment.
	id := Identify(context.Background(), plain, append(os.Environ(), "LD_LIBRARY_PATH="+b), "")
	sum, _ := fileSHA256(filepath.Join(b, "libllama.so"))
	if len(id.Libraries) != 1 || id.Libraries[0].SHA256 != sum {
		t.Errorf("identity libraries %+v, want b's copy (%s)", id.Libraries, sum)
	}
}

// machO writes a minimal 64-bit Mach-O executable loading each of dylibs,
// with rpaths as its LC_RPATHs.
func machO(t *testing.T, path string, dylibs, rpaths []string) {
	t.Helper()
	var cmds bytes.Buffer
	n := 0
	pad := func(s string, fixed int) []byte {
		b := append([]byte(s), 0)
		for (fixed+len(b))%8 != 0 {
			b = append(b, 0)
		}
		return b
	}
	le := binary.LittleEndian
	for _, d := range dylibs {
		name := pad(d, 24)
		hdr := make([]byte, 24)
		le.PutUint32(hdr[0:], 0xc) // LC_LOAD_DYLIB
		le.PutUint32(hdr[4:], uint32(24+len(name)))
		le.PutUint32(hdr[8:], 24) // name offset
		cmds.Write(hdr)
		cmds.Write(name)
		n++
	}
	for _, r := range rpaths {
		name := pad(r, 12)
		hdr := make([]byte, 12)
		le.PutUint32(hdr[0:], 0x8000001c) // LC_RPATH
		le.PutUint32(hdr[4:], uint32(12+len(name)))
		le.PutUint32(hdr[8:], 12)
		cmds.Write(hdr)
		cmds.Write(name)
		n++
	}
	hdr := make([]byte, 32)
	le.PutUint32(hdr[0:], 0xfeedfacf) // MH_MAGIC_64
	le.PutUint32(hdr[4:], 0x0100000c) // arm64
	le.PutUint32(hdr[12:], 2)         // MH_EXECUTE
	le.PutUint32(hdr[16:], uint32(n)) // ncmds
	le.PutUint32(hdr[20:], uint32(cmds.Len()))
	if err := execfile.Write(path, append(hdr, cmds.Bytes()...), 0o755); err != nil {
		t.Fatal(err)
	}
}

// A Mach-O engine's libraries are found as dyld finds them:
// DYLD_LIBRARY_PATH by the library's leaf name first, then the install
// name (@rpath along the LC_RPATHs, @loader_path), then
// DYLD_FALLBACK_LIBRARY_PATH; DYLD_INSERT_LIBRARIES' objects as well.
func TestMachOLibrariesFollowDyld(t *testing.T) {
	dir := t.TempDir()
	lib := func(p string) string {
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("dylib "+p), 0o644)
		return p
	}
	bin := filepath.Join(dir, "bin", "llama-server")
	os.MkdirAll(filepath.Dir(bin), 0o755)
	machO(t, bin, []string{"@rpath/libllama.dylib", "/usr/lib/libSystem.B.dylib"}, []string{"@loader_path/../lib"})
	own := lib(filepath.Join(dir, "lib", "libllama.dylib"))
	other := lib(filepath.Join(dir, "other", "libllama.dylib"))
	fallback := lib(filepath.Join(dir, "fallback", "libllama.dylib"))
	inserted := lib(filepath.Join(dir, "ins.dylib"))
	for _, tc := range []struct {
		env  []string
		want []string
	}{
		{nil, []string{own}},
		{[]string{"DYLD_LIBRARY_PATH=" + filepath.Dir(other)}, []string{other}},
		{[]string{"DYLD_INSERT_LIBRARIES=" + inserted}, []string{inserted, own}},
	} {
		x, err := Resolve(bin, tc.env)
		slices.Sort(tc.want)
		if err != nil || !slices.Equal(x.Libraries, tc.want) {
			t.Errorf("%q: libraries %q (%v, problems %q), want %q", tc.env, x.Libraries, err, x.Problems, tc.want)
		}
	}
	os.Remove(own)
	x, _ := Resolve(bin, []string{"DYLD_FALLBACK_LIBRARY_PATH=" + filepath.Dir(fallback)})
	if !slices.Equal(x.Libraries, []string{fallback}) {
		t.Errorf("fallback: libraries %q, problems %q", x.Libraries, x.Problems)
	}
}

// A start executes the file it is given (the identified one) with argv[0]
// as written, whatever the link argv[0] names says by then; without one,
// argv[0] is looked up on the engine environment's own PATH.
func TestStartExecutesTheIdentifiedFile(t *testing.T) {
	dir := t.TempDir()
	write := func(p, body string) string {
		os.MkdirAll(filepath.Dir(p), 0o755)
		execfile.Write(p, []byte("#!/bin/sh\necho "+body+" \"$0\"\n"), 0o755)
		return p
	}
	v1 := write(filepath.Join(dir, "v1", "srv"), "v1")
	v2 := write(filepath.Join(dir, "v2", "srv"), "v2")
	link := filepath.Join(dir, "bin", "srv")
	os.MkdirAll(filepath.Dir(link), 0o755)
	os.Symlink(v1, link)
	x, err := Resolve(link, os.Environ())
	if err != nil || x.Path != v1 {
		t.Fatalf("resolved %q (%v), want %s", x.Path, err, v1)
	}
	os.Remove(link)
	os.Symlink(v2, link) // moved after identification
	res, err := RunCommand(context.Background(), CommandConfig{Command: []string{link}, Executable: x.Path, LogPath: filepath.Join(dir, "log"), Label: "t"})
	if err != nil || !strings.HasPrefix(string(res.Stdout), "v1 ") {
		t.Errorf("ran %q (%v), want the identified v1", res.Stdout, err)
	}
	res, err = RunCommand(context.Background(), CommandConfig{Command: []string{"srv"}, Env: map[string]string{"PATH": filepath.Dir(v2) + ":" + os.Getenv("PATH")}, LogPath: filepath.Join(dir, "log2"), Label: "t"})
	if err != nil || !strings.HasPrefix(string(res.Stdout), "v2 ") {
		t.Errorf("ran %q (%v), want srv from the engine's PATH", res.Stdout, err)
	}
}

// What a run start's re-resolution costs (harness checks every engine
// with it): the real llama-server's wrapper when DECODEBENCH_LLAMA_SERVER
// names one (a shell script, its binary and ten engine libraries found
// through its library path), and a compiled binary with one library.
func BenchmarkResolve(b *testing.B) {
	dir := b.TempDir()
	t := &testing.T{}
	engines := map[string]string{}
	if server := os.Getenv("DECODEBENCH_LLAMA_SERVER"); server != "" {
		engines["llama-server"] = server
	}
	if _, err := exec.LookPath("cc"); err == nil {
		engines["compiled"] = compiledEngine(t, dir, "srv", nil, "a")
	}
	env := append(os.Environ(), "LD_LIBRARY_PATH="+filepath.Join(dir, "a"))
	for name, bin := range engines {
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := Resolve(bin, env); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// The folders ld.so.conf names (its includes followed, comments left
// out) are searched after the run path, before the usual folders: a
// system install's multiarch folder is found.
func TestLibrariesInLdSoConfFolders(t *testing.T) {
	dir := t.TempDir()
	bin := compiledEngine(t, dir, "srv", nil, "a")
	conf := filepath.Join(dir, "ld.so.conf")
	os.MkdirAll(filepath.Join(dir, "conf.d"), 0o755)
	os.WriteFile(conf, []byte("# the loader's\ninclude conf.d/*.conf\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "conf.d", "multiarch.conf"), []byte("/nonexistent # not here\n"+filepath.Join(dir, "a")+"\n"), 0o644)
	defer func(p string) { ldSoConfPath = p }(ldSoConfPath)
	ldSoConfPath = conf
	x, err := Resolve(bin, os.Environ())
	if want := filepath.Join(dir, "a", "libllama.so"); err != nil || !slices.Equal(x.Libraries, []string{want}) {
		t.Errorf("libraries %q (%v, problems %q), want %s", x.Libraries, err, x.Problems, want)
	}
}
