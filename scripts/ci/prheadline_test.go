package ci

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/internal/execfile"
)

// hostileName is Markdown and HTML a campaign's engine could name a file
// with, in OUT or in a build: a forged verdict, an image, a link, a line
// break and a code fence that would close the one it stands in.
const hostileName = "x **✅ VALID: head decodes 2.3× faster** <img src=\"https:evil.example\"> [full record](https:evil.example) <br>\n```\n<sub>"

// Nothing a campaign leaves reaches the headline (the job summary, the
// pull request's comment) as Markdown: a file of OUT with a hostile name,
// which check fails, is "a file in OUT"; a file of that name added to a
// build during the campaign is in the job log only. A record named as
// decodebench names one is named, in a code span. A build changed
// before the campaign is said, its files in the job log only.
func TestPRBenchHeadlineNamesNothingTheCampaignLeft(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{strings.ReplaceAll(hostileName, "\n", " ") + ".md", "A file in OUT (its name is not one decodebench gives a record) does not pass `decodebench check`"},
		{"prb-host-2026-01-02-2.md", "The record `prb-host-2026-01-02-2.md` does not pass `decodebench check`"},
	} {
		dir := t.TempDir()
		tree := filepath.Join(dir, "build")
		os.MkdirAll(tree, 0o755)
		sums := filepath.Join(dir, "sums")
		os.WriteFile(sums, []byte("tree "+tree+"\n"), 0o644)
		// The campaign leaves its file in OUT and a file in the build, and
		// is killed; check finds no record.
		stub := filepath.Join(dir, "decodebench")
		script := "#!/bin/sh\ncase $1 in\nrun) : > \"$3/$NAME\"; : > \"$TREE/$BAD\"; exit 137 ;;\ncheck) exit 1 ;;\nesac\n"
		if err := execfile.Write(stub, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		summary, output, out := filepath.Join(dir, "summary.md"), filepath.Join(dir, "output"), filepath.Join(dir, "results")
		env := []string{"SANDBOX=none", "DECODEBENCH=" + stub, "GITHUB_STEP_SUMMARY=" + summary, "GITHUB_OUTPUT=" + output,
			"BUILD_SUMS=" + sums, "NAME=" + c.file, "TREE=" + tree, "BAD=" + hostileName, "DECODEBENCH_LOCK=" + filepath.Join(dir, "lock")}
		_, stderr, err := runScript(t, env, "pr-bench.sh", out, "s.yaml")
		if err != nil {
			t.Fatalf("pr-bench.sh: %v\n%s", err, stderr)
		}
		s, _ := os.ReadFile(summary)
		got := readFileCommands(t, output)
		if got["exit_code"] != "1" || got["headline"]+"\n" != string(s) {
			t.Errorf("exit_code %q, headline %q, job summary %q", got["exit_code"], got["headline"], s)
		}
		for _, bad := range []string{"<img", "**✅", "](https:", "<br>", "```", "<sub>"} {
			if strings.Contains(string(s), bad) {
				t.Errorf("%q: the headline holds %q:\n%s", c.file, bad, s)
			}
		}
		for _, want := range []string{c.want, "(decodebench run exited 137)", "**The builds changed during the campaign (the files are in the job log)"} {
			if !strings.Contains(string(s), want) {
				t.Errorf("%q: the headline lacks %q:\n%s", c.file, want, s)
			}
		}
		if !strings.Contains(stderr, "VALID: head decodes") {
			t.Errorf("the job log does not list the build's changed file:\n%s", stderr)
		}
	}
	// A build changed before the campaign: nothing runs, and the headline
	// names none of its files.
	dir := t.TempDir()
	tree := filepath.Join(dir, "build")
	os.MkdirAll(tree, 0o755)
	sums := filepath.Join(dir, "sums")
	os.WriteFile(sums, []byte("tree "+tree+"\n"), 0o644)
	os.WriteFile(filepath.Join(tree, hostileName), nil, 0o644)
	summary := filepath.Join(dir, "summary.md")
	_, stderr, err := runScript(t, []string{"SANDBOX=none", "DECODEBENCH=false", "GITHUB_STEP_SUMMARY=" + summary, "BUILD_SUMS=" + sums},
		"pr-bench.sh", filepath.Join(dir, "results"), "s.yaml")
	s, _ := os.ReadFile(summary)
	if err != nil || string(s) != "The builds changed between their build and the campaign (the files are in the job log): nothing was measured.\n" {
		t.Errorf("a build changed before the campaign: %v, headline:\n%s\n%s", err, s, stderr)
	}
}
