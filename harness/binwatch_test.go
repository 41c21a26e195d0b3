package harness

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/engine"
)

// oneEngine is a scenario whose every arm runs command with env (YAML
// flow mappings), the arms told apart by their arguments or armEnv.
func oneEngine(command, env, armEnv string) string {
	return `feature: t
engine:
  preset: llama.cpp
  command: [` + command + `, --port, "${PORT}"]
  env: {` + env + `}
  request: {prompt: p, max_tokens: 8}
arms:
  - name: base
  - name: head
    args: [--x]
    env: {` + armEnv + `}
baseline: base
schedule: {rounds: 6}
counters:
  - name: c
    json: x
    expect: {base: "== 0", head: "> 0"}
unmeasured: [nothing]
`
}

func replaceLink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link+".new"); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(link+".new", link); err != nil {
		t.Fatal(err)
	}
}

// A link moved between runs (llama-server → another build, as `brew
// upgrade` moves it) is seen at the next run start, although the file the
// campaign identified is untouched; the run executes that identified file
// all the same (engine.Config.Executable).
func TestEngineCheckSeesAMovedLink(t *testing.T) {
	dir := t.TempDir()
	v1 := fakeBinary(t, filepath.Join(dir, "v1", "srv"), "srv build 1")
	v2 := fakeBinary(t, filepath.Join(dir, "v2", "srv"), "srv build 2")
	link := filepath.Join(dir, "bin", "srv")
	os.MkdirAll(filepath.Dir(link), 0o755)
	replaceLink(t, v1, link)
	c := testCampaign(t, oneEngine(link, "", ""))
	es := identifyEngines(context.Background(), c.scenario)
	if err := es.refuse(c.scenario); err != nil {
		t.Fatal(err)
	}
	if err := es.check("head"); err != nil {
		t.Fatalf("nothing changed: %v", err)
	}
	if got := es.executable("head"); got != v1 {
		t.Errorf("the runs execute %q, want the identified %q", got, v1)
	}
	replaceLink(t, v2, link)
	err := es.check("head")
	if err == nil || !strings.Contains(err.Error(), "now executes "+v2) || !strings.Contains(err.Error(), "changed since the campaign started") {
		t.Errorf("moved link: %v", err)
	}
}

// A new binary of the command's name earlier on PATH, the arm's own PATH
// (engine env) or decodebench's, is seen at the next run start.
func TestEngineCheckSeesABinaryEarlierOnPATH(t *testing.T) {
	for _, where := range []string{"engine env", "process"} {
		t.Run(where, func(t *testing.T) {
			dir := t.TempDir()
			first, second := filepath.Join(dir, "first"), filepath.Join(dir, "second")
			os.MkdirAll(first, 0o755)
			found := fakeBinary(t, filepath.Join(second, "dbsrv"), "srv build 1")
			path := first + ":" + second + ":" + os.Getenv("PATH")
			env := ""
			if where == "process" {
				t.Setenv("PATH", path)
			} else {
				env = `PATH: "` + path + `"`
			}
			c := testCampaign(t, oneEngine("dbsrv", env, ""))
			es := identifyEngines(context.Background(), c.scenario)
			if err := es.refuse(c.scenario); err != nil {
				t.Fatal(err)
			}
			if es.of("base").Path != found || es.check("base") != nil {
				t.Fatalf("identified %q (problems %q), want %q; check %v", es.of("base").Path, es.of("base").Problems, found, es.check("base"))
			}
			shadow := fakeBinary(t, filepath.Join(first, "dbsrv"), "srv build 2")
			err := es.check("base")
			if err == nil || !strings.Contains(err.Error(), "now executes "+shadow) {
				t.Errorf("a binary earlier on PATH: %v", err)
			}
		})
	}
}

// A binary rewritten in place (same inode, same size) with its
// modification time set back is seen: its change time moved.
func TestEngineCheckSeesARewriteWithMtimeRestored(t *testing.T) {
	dir := t.TempDir()
	srv := fakeBinary(t, filepath.Join(dir, "srv"), "srv build 1")
	old := time.Now().Add(-time.Hour).Round(time.Second)
	if err := os.Chtimes(srv, old, old); err != nil {
		t.Fatal(err)
	}
	c := testCampaign(t, oneEngine(srv, "", ""))
	es := identifyEngines(context.Background(), c.scenario)
	before, _ := os.Stat(srv)
	time.Sleep(50 * time.Millisecond) // past the clock's grain
	f, err := os.OpenFile(srv, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(srv)
	if _, err := f.WriteAt([]byte(strings.Replace(string(b), "build 1", "build 9", 1)), 0); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Chtimes(srv, old, old); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(srv)
	if !os.SameFile(before, after) || before.Size() != after.Size() || !before.ModTime().Equal(after.ModTime()) {
		t.Fatal("the rewrite is not in place with the old size and modification time")
	}
	err = es.check("base")
	if err == nil || !strings.Contains(err.Error(), "changed since the campaign started") {
		t.Errorf("rewritten in place, mtime restored: %v", err)
	}
}

// cc builds a real engine: a binary that needs libllama.so (no run path:
// only LD_LIBRARY_PATH finds it) and two copies of the library that say
// which they are. It skips without a C compiler.
func cc(t *testing.T, dir string) (bin, libA, libB string) {
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
	for _, copy := range []string{"a", "b"} {
		src := filepath.Join(dir, copy+".c")
		os.WriteFile(src, []byte(`const char *llama_which(void) { return "`+copy+`"; }`+"\n"), 0o644)
		os.MkdirAll(filepath.Join(dir, copy), 0o755)
		run("-shared", "-fPIC", "-o", filepath.Join(dir, copy, "libllama.so"), src)
	}
	main := filepath.Join(dir, "main.c")
	os.WriteFile(main, []byte("#include <stdio.h>\nconst char *llama_which(void);\nint main(void) { printf(\"build %s\\n\", llama_which()); return 0; }\n"), 0o644)
	bin = filepath.Join(dir, "bin", "srv")
	os.MkdirAll(filepath.Dir(bin), 0o755)
	run("-o", bin, main, "-L"+filepath.Join(dir, "a"), "-lllama")
	return bin, filepath.Join(dir, "a", "libllama.so"), filepath.Join(dir, "b", "libllama.so")
}

// Two arms that differ only by LD_LIBRARY_PATH, each naming its own copy
// of libllama, run different engines: each is identified in its own
// environment and records its own copy's hash, and the loader really
// loads that copy.
func TestArmLibraryPathIdentifiesItsOwnCopy(t *testing.T) {
	dir := t.TempDir()
	bin, libA, libB := cc(t, dir)
	c := testCampaign(t, oneEngine(bin, `LD_LIBRARY_PATH: "`+filepath.Dir(libA)+`"`, `LD_LIBRARY_PATH: "`+filepath.Dir(libB)+`"`))
	if n := len(c.scenario.Engines()); n != 2 {
		t.Fatalf("%d engines, want one per library path", n)
	}
	es := identifyEngines(context.Background(), c.scenario)
	for arm, lib := range map[string]string{"base": libA, "head": libB} {
		id := es.of(arm)
		if len(id.Libraries) != 1 || id.Libraries[0].Path != lib {
			t.Errorf("arm %s: libraries %+v (problems %q), want %s", arm, id.Libraries, id.Problems, lib)
			continue
		}
		if want, _ := engine.FileSHA256(lib); id.Libraries[0].SHA256 != want {
			t.Errorf("arm %s: library hash %s, want its copy's %s", arm, id.Libraries[0].SHA256, want)
		}
		cmd := exec.Command(es.executable(arm))
		cmd.Env = es.envs[es.byArm[arm]]
		out, err := cmd.Output()
		if want := "build " + filepath.Base(filepath.Dir(lib)); err != nil || strings.TrimSpace(string(out)) != want {
			t.Errorf("arm %s printed %q (%v), want %q: the loader does not load the identified copy", arm, out, err, want)
		}
	}
	// The library swapped under one arm is seen at its next run start,
	// and under that arm only.
	os.Rename(libA, libA+".old")
	os.Link(libB, libA)
	if err := es.check("base"); err == nil || !strings.Contains(err.Error(), libA) {
		t.Errorf("library swapped under base: %v", err)
	}
	if err := es.check("head"); err != nil {
		t.Errorf("head's library is untouched: %v", err)
	}
}
