package sourcestyle

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const (
	// maxLines is the most lines a file of code may hold: past it, a file
	// mixes concerns.
	maxLines = 400
	// maxString is the longest a format string or a quoted string may be.
	maxString = 200
)

// sources are the module's Go files outside tests, test data and caches.
func sources(t *testing.T) []string {
	t.Helper()
	root := filepath.Join("..", "..")
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "bin" || n == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 100 {
		t.Fatalf("found only %d source files from %s", len(out), root)
	}
	return out
}

func TestFilesAreShort(t *testing.T) {
	for _, p := range sources(t) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(b), "\n"); n > maxLines {
			t.Errorf("%s: %d lines, more than %d: split it by concern", p, n, maxLines)
		}
	}
}

// formatters are the functions and methods whose argument at the index is
// a format string.
var formatters = map[string]int{"Printf": 0, "Sprintf": 0, "Errorf": 0, "Fatalf": 0, "Fprintf": 1, "p": 0}

func TestStringsAreShort(t *testing.T) {
	fset := token.NewFileSet()
	for _, p := range sources(t) {
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		long := func(lit *ast.BasicLit) bool {
			s, err := strconv.Unquote(lit.Value)
			return err == nil && len(s) > maxString
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if n.Kind == token.STRING && strings.HasPrefix(n.Value, `"`) && long(n) {
					t.Errorf("%s: a quoted string of more than %d characters: write short sentences joined, or a raw string of help text", fset.Position(n.Pos()), maxString)
				}
			case *ast.CallExpr:
				name := ""
				switch fn := n.Fun.(type) {
				case *ast.Ident:
					name = fn.Name
				case *ast.SelectorExpr:
					name = fn.Sel.Name
				}
				if i, ok := formatters[name]; ok && i < len(n.Args) {
					if lit, ok := n.Args[i].(*ast.BasicLit); ok && lit.Kind == token.STRING && long(lit) {
						t.Errorf("%s: a format string of more than %d characters", fset.Position(lit.Pos()), maxString)
					}
				}
			}
			return true
		})
	}
}
