package sourcestyle

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"testing"

	"github.com/decodebench/decodebench/redact"
)

// TestFixedTextSurvivesRedaction keeps decodebench's own text out of the
// forms the console's redactor masks: a placeholder such as key=value or
// token=X in a message reads "key=[redacted]" once printed. Every string
// literal of the code must pass the redactor's forms unchanged (help
// text, which is not redacted, too: one vocabulary for both).
func TestFixedTextSurvivesRedaction(t *testing.T) {
	fset := token.NewFileSet()
	var forms *redact.Redactor // no secret known: its forms alone
	for _, p := range sources(t) {
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			if got := forms.Text(s); got != s {
				t.Errorf("%s: the console's redactor masks part of this text (%q reads %q): write no NAME=VALUE form whose name reads as a credential's",
					fset.Position(lit.Pos()), around(s, got), around(got, s))
			}
			return true
		})
	}
}

// around is s about the first byte where it differs from other.
func around(s, other string) string {
	i := 0
	for i < len(s) && i < len(other) && s[i] == other[i] {
		i++
	}
	return s[max(0, i-40):min(len(s), i+40)]
}
