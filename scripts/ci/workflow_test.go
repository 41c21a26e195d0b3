// Package ci holds the example GitHub Actions workflow for self-hosted
// benchmark runners; its test lints it with actionlint.
package ci

import (
	"io"
	"os"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"
	"gopkg.in/yaml.v3"
)

func lint(t *testing.T, src []byte) []*actionlint.Error {
	return lintFile(t, "decodebench.yml", src)
}

func lintFile(t *testing.T, name string, src []byte) []*actionlint.Error {
	t.Helper()
	l, err := actionlint.NewLinter(io.Discard, &actionlint.LinterOptions{ConfigFile: "actionlint.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	errs, err := l.Lint(name, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	return errs
}

func TestWorkflowPassesActionlint(t *testing.T) {
	src, err := os.ReadFile("decodebench.yml")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range lint(t, src) {
		t.Errorf("%s:%d:%d: %s [%s]", e.Filepath, e.Line, e.Column, e.Message, e.Kind)
	}
	for _, want := range []string{"workflow_dispatch", "matrix", "concurrency", "upload-artifact", "decodebench\" check", "diff --markdown", "docs/benchmark_results/**", "--github-summary", "--wait-lock", "confirm-regression.sh"} {
		if !strings.Contains(string(src), want) {
			t.Errorf("workflow lacks %q", want)
		}
	}
}

// The linter is not vacuous: a broken workflow is reported.
func TestActionlintCatchesErrors(t *testing.T) {
	bad := []byte("on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ matrix.nope }}\n")
	if len(lint(t, bad)) == 0 {
		t.Error("actionlint found nothing in a workflow using an undefined matrix")
	}
}

// The example workflow's steps run on the verdicts they say: the gate on
// a reference record for every verdict but FAILED (an UNVERIFIED
// campaign, exit 2, was never gated and the job stayed green), and the
// job fails on FAILED, REJECTED and INCOMPLETE (an interrupted campaign,
// without a reference, passed green). The steps' `if` expressions are
// evaluated as GitHub evaluates them, parsed by actionlint.
func TestWorkflowGatesEveryVerdict(t *testing.T) {
	src, err := os.ReadFile("decodebench.yml")
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		Jobs map[string]struct {
			Steps []struct {
				Name string `yaml:"name"`
				If   string `yaml:"if"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(src, &wf); err != nil {
		t.Fatal(err)
	}
	conds := map[string]string{}
	for _, j := range wf.Jobs {
		for _, s := range j.Steps {
			conds[s.Name] = s.If
		}
	}
	gate, fail := conds["Gate on the reference record, a first alarm confirmed by a rerun"], conds["Fail on a failed, rejected or incomplete campaign"]
	if gate == "" || fail == "" {
		t.Fatalf("the gate's or the failing step's condition is gone: %q, %q", gate, fail)
	}
	for _, c := range []struct {
		code, reference string
		gate, fail      bool
	}{
		{"0", "ref.md", true, false}, {"2", "ref.md", true, false}, {"3", "ref.md", true, true}, {"1", "ref.md", false, true},
		{"0", "", false, false}, {"2", "", false, false}, {"3", "", false, true}, {"1", "", false, true},
		// INCOMPLETE: a signal, or on_busy: abort on a busy runner.
		{"130", "ref.md", true, true}, {"130", "", false, true}, {"143", "", false, true}, {"129", "", false, true},
	} {
		vars := map[string]string{"steps.run.outputs.exit_code": c.code, "inputs.reference": c.reference}
		if got := evalIf(t, gate, vars); got != c.gate {
			t.Errorf("exit %s, reference %q: the gate runs: %v, want %v", c.code, c.reference, got, c.gate)
		}
		if got := evalIf(t, fail, vars); got != c.fail {
			t.Errorf("exit %s, reference %q: the job fails: %v, want %v", c.code, c.reference, got, c.fail)
		}
	}
}

// evalIf evaluates a step's `if` over string variables: comparisons of
// variables and string literals joined by && and ||, as GitHub does
// (string comparison; a variable not given is fatal).
func evalIf(t *testing.T, src string, vars map[string]string) bool {
	t.Helper()
	node, perr := actionlint.NewExprParser().Parse(actionlint.NewExprLexer(src + "}}"))
	if perr != nil {
		t.Fatalf("%q: %v", src, perr)
	}
	var value func(n actionlint.ExprNode) string
	value = func(n actionlint.ExprNode) string {
		switch n := n.(type) {
		case *actionlint.StringNode:
			return n.Value
		case *actionlint.ObjectDerefNode, *actionlint.VariableNode:
			name := exprPath(n)
			v, ok := vars[name]
			if !ok {
				t.Fatalf("%q uses %s, which this test does not know", src, name)
			}
			return v
		case *actionlint.CompareOpNode:
			l, r := value(n.Left), value(n.Right)
			switch n.Kind {
			case actionlint.CompareOpNodeKindEq:
				return boolString(l == r)
			case actionlint.CompareOpNodeKindNotEq:
				return boolString(l != r)
			}
		case *actionlint.LogicalOpNode:
			l, r := value(n.Left) == "true", value(n.Right) == "true"
			if n.Kind == actionlint.LogicalOpNodeKindAnd {
				return boolString(l && r)
			}
			return boolString(l || r)
		}
		t.Fatalf("%q: an expression this test does not evaluate: %T", src, n)
		return ""
	}
	return value(node) == "true"
}

func exprPath(n actionlint.ExprNode) string {
	switch n := n.(type) {
	case *actionlint.VariableNode:
		return n.Name
	case *actionlint.ObjectDerefNode:
		return exprPath(n.Receiver) + "." + n.Property
	}
	return "?"
}

func boolString(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
