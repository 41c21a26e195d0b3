package execfile

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// busyRuns writes n scripts with write and runs each at once, while two
// goroutines start commands without pause, as parallel tests do; it
// returns how many runs execve refused as "text file busy".
func busyRuns(t *testing.T, n int, write func(path string, data []byte) error) int {
	t.Helper()
	dir := t.TempDir()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
					exec.Command("/bin/true").Run()
				}
			}
		}()
	}
	defer func() { close(stop); wg.Wait() }()
	busy := 0
	for i := range n {
		p := filepath.Join(dir, "s"+string(rune('a'+i%26))+string(rune('a'+i/26%26)))
		if err := write(p, []byte("#!/bin/sh\nexit 0\n")); err != nil {
			t.Fatal(err)
		}
		err := exec.Command(p).Run()
		if errors.Is(err, syscall.ETXTBSY) {
			busy++
		} else if err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
	}
	return busy
}

// A script written by Write and run at once, beside goroutines starting
// commands, is never refused as busy. Written by os.WriteFile, the same
// loop was refused 41 times in 2,000 on the 2-core VM: 300 runs of it pass
// by chance about once in 400.
func TestWrittenScriptsRun(t *testing.T) {
	if busy := busyRuns(t, 300, func(p string, b []byte) error { return Write(p, b, 0o755) }); busy > 0 {
		t.Errorf("%d of 300 scripts written by Write were refused as busy", busy)
	}
}

func TestCopyKeepsContentAndMode(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	if err := os.WriteFile(src, []byte("#!/bin/sh\necho copied\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(dir, "it's a copy")
	if err := Copy(src, dst, 0o750); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(dst).Output()
	if err != nil || string(out) != "copied\n" {
		t.Fatalf("the copy ran %q, %v", out, err)
	}
	if fi, _ := os.Stat(dst); fi.Mode().Perm() != 0o750 {
		t.Errorf("mode %v, want 0750", fi.Mode().Perm())
	}
	if err := Copy(filepath.Join(dir, "missing"), dst, 0o755); err == nil {
		t.Error("copying a missing file: no error")
	}
	if err := Write(filepath.Join(dir, "no", "such", "folder"), nil, 0o755); err == nil {
		t.Error("writing into a missing folder: no error")
	}
}

// No test of the module writes an executable file from its own process:
// every os.WriteFile or os.OpenFile whose mode is a constant with an
// execute bit goes through Write or Copy instead.
func TestNoTestWritesAnExecutableInProcess(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	seen := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != root && (strings.HasPrefix(n, ".") || n == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(p, ".txtar") {
			seen++
			checkArchive(t, p)
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		seen++
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || len(call.Args) != 3 {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); !ok || x.Name != "os" || (sel.Sel.Name != "WriteFile" && sel.Sel.Name != "OpenFile") {
				return true
			}
			lit, ok := call.Args[2].(*ast.BasicLit)
			if !ok || lit.Kind != token.INT {
				return true
			}
			if mode, err := strconv.ParseUint(lit.Value, 0, 32); err == nil && mode&0o111 != 0 {
				t.Errorf("%s: os.%s with mode %s writes an executable from the test's own process: use execfile.Write or execfile.Copy", fset.Position(call.Pos()), sel.Sel.Name, lit.Value)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen < 200 {
		t.Fatalf("read only %d Go files from %s", seen, root)
	}
}

// checkArchive fails a testscript archive that makes one of its own files
// executable with chmod: testscript wrote that file in the test's process
// (use the scripts' mkexec).
func checkArchive(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ar := txtar.Parse(b)
	files := map[string]bool{}
	for _, f := range ar.Files {
		files[f.Name] = true
	}
	for i, line := range strings.Split(string(ar.Comment), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 || f[0] != "chmod" {
			continue
		}
		mode, err := strconv.ParseUint(f[1], 8, 32)
		if err != nil || mode&0o111 == 0 {
			continue
		}
		for _, target := range f[2:] {
			if files[target] {
				t.Errorf("%s:%d: chmod %s %s makes a file testscript wrote in the test's process executable: use mkexec", path, i+1, f[1], target)
			}
		}
	}
}
