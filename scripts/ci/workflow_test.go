// Package ci holds the example GitHub Actions workflow for self-hosted
// benchmark runners; its test lints it with actionlint.
package ci

import (
	"io"
	"os"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"
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
