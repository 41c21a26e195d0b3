package scenarios

import (
	"fmt"
	"slices"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser"

	"github.com/decodebench/decodebench/schema"
)

// Expression inputs: an extra metric's expr names other metrics of the
// run, tokens and model_bytes. The names are what the expression parser
// reads as identifiers, so that a number such as 1e9 is a number and a
// function such as max() is no input.

// exprInputs lists, once each and in order of first use, the identifiers
// an expression reads as values.
func exprInputs(src string) ([]string, error) {
	tree, err := parser.Parse(src)
	if err != nil {
		return nil, fmt.Errorf("expression %q: %s", src, strings.ReplaceAll(err.Error(), "\n", " "))
	}
	v := &identVisitor{callees: map[ast.Node]bool{}}
	ast.Walk(&tree.Node, v)
	var out []string
	for _, id := range v.idents {
		if !v.callees[id] && !slices.Contains(out, id.Value) {
			out = append(out, id.Value)
		}
	}
	return out, nil
}

type identVisitor struct {
	idents  []*ast.IdentifierNode
	callees map[ast.Node]bool
}

func (v *identVisitor) Visit(n *ast.Node) {
	switch x := (*n).(type) {
	case *ast.IdentifierNode:
		v.idents = append(v.idents, x)
	case *ast.CallNode:
		v.callees[x.Callee] = true
	case *ast.MemberNode:
		// a.b: only a is a name of the run.
		v.callees[x.Property] = true
	}
}

// ExprVars are the names an expression may use beside the metrics.
const (
	VarTokens     = "tokens"
	VarModelBytes = "model_bytes"
)

// neverMeasured lists the built-in metrics this scenario's engine can
// never report, each with why.
func (s *Scenario) neverMeasured() map[string]string {
	out := map[string]string{}
	for _, bm := range schema.Metrics {
		switch {
		case s.Engine.IsCommand():
			if _, ok := s.Engine.Output.Metrics[bm.Name]; !ok && bm.Name != schema.WallS {
				out[bm.Name] = "a command engine reports only wall_s and the metrics engine.output.metrics reads"
			}
		case bm.Stream && bm.Name != schema.StepTokS && !strings.HasPrefix(s.Engine.Request.Endpoint, "/v1/"):
			out[bm.Name] = "it is measured on the OpenAI-compatible endpoints (/v1/…) only"
		}
	}
	return out
}

// checkExprInputs reports the extra metrics whose expression can never
// have a value: an input that is no metric of the scenario, one the
// engine never reports, or an expression that needs itself.
func (s *Scenario) checkExprInputs(p *problems) {
	never := s.neverMeasured()
	derived := map[string][]string{}
	for i, m := range s.Metrics.Extra {
		if m.Expr == "" {
			continue
		}
		in, err := exprInputs(m.Expr)
		if err != nil {
			continue // reported by the compiler
		}
		derived[m.Name] = in
		for _, name := range in {
			if why, ok := never[name]; ok {
				p.at(fmt.Sprintf("metrics.extra[%d].expr", i), "%q can never have a value: it uses %s, which this scenario never measures (%s)", m.Name, name, why)
				break
			}
		}
	}
	for i, m := range s.Metrics.Extra {
		if m.Expr == "" {
			continue
		}
		if path := cycle(m.Name, derived, nil); path != nil {
			p.at(fmt.Sprintf("metrics.extra[%d].expr", i), "%q can never have a value: its expression needs itself (%s)", m.Name, strings.Join(path, " → "))
		}
	}
}

// cycle returns the path by which name's expression comes back to start,
// nil when it does not.
func cycle(name string, derived map[string][]string, path []string) []string {
	path = append(path, name)
	for _, in := range derived[name] {
		if in == path[0] {
			return append(path, in)
		}
		if slices.Contains(path, in) {
			continue
		}
		if c := cycle(in, derived, path); c != nil {
			return c
		}
	}
	return nil
}
