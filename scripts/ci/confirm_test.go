package ci

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/internal/execfile"
)

// confirmDB builds decodebench and puts beside it a decodebench that runs
// it for every command but reproduce, whose rerun is the committed record
// named by $RERUN (copied with its data folder into --out, its path written
// to --record-path, as reproduce does), or nothing when $RERUN is empty;
// the arguments reproduce got go to $ARGS. The diffs are the real ones, on
// real records; the campaign a rerun would run is not this script's part.
func confirmDB(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	real := filepath.Join(dir, "decodebench-real")
	build := exec.Command("go", "build", "-o", real, "./cmd/decodebench")
	build.Dir = filepath.Join("..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	results, _ := filepath.Abs(filepath.Join("..", "..", "docs", "benchmark_results"))
	stub := `#!/bin/sh
if [ "$1" != reproduce ]; then exec "` + real + `" "$@"; fi
echo "$@" > "$ARGS"
while [ $# -gt 0 ]; do
  case $1 in
  --out) out=$2; shift ;;
  --record-path) path=$2; shift ;;
  esac
  shift
done
[ -n "$RERUN" ] || exit 1
mkdir -p "$out/data"
cp "` + results + `/$RERUN.md" "$out/"
cp -R "` + results + `/data/$RERUN" "$out/data/"
echo "$out/$RERUN.md" > "$path"
`
	db := filepath.Join(dir, "decodebench")
	if err := execfile.Write(db, []byte(stub), 0o755); err != nil {
		t.Fatal(err)
	}
	return db
}

// confirm-regression.sh passes a record without an alarm at once; on an
// alarm it reruns the new record's campaign and fails only when the rerun
// confirms it; a diff that fails without an alarm (an unreadable record),
// or a rerun that leaves no record, fails without a rerun's say.
func TestConfirmRegression(t *testing.T) {
	if testing.Short() {
		t.Skip("builds decodebench")
	}
	db := confirmDB(t)
	rec := func(name string) string {
		p, _ := filepath.Abs(filepath.Join("..", "..", "docs", "benchmark_results", name+".md"))
		return p
	}
	old, alarmed := rec("spec-draft-epyc-2026-12-02"), rec("spec-draft-epyc-2026-11-29-3")
	for _, c := range []struct {
		name, old, new, rerun string
		fails                 bool
		reran                 bool
		summary, stderr       string
	}{
		{"no alarm", rec("spec-draft-epyc-2026-11-29-3"), rec("spec-draft-epyc-2026-11-29-2"), "", false, false, "Each arm's ratio to its own baseline, of medians", ""},
		{"an alarm the rerun confirms", old, alarmed, "spec-draft-epyc-2026-11-29-2", true, true, "Regression confirmed by the second session", "the rerun confirms the regression"},
		{"a rerun that leaves no record", old, alarmed, "", true, true, "| **worse** |", "the rerun left no record"},
		{"a rerun that is the same campaign", old, alarmed, "spec-draft-epyc-2026-11-29-3", true, true, "**Refused:** the second session's new record is the same campaign", "confirms the regression (or a diff refused)"},
		{"an unreadable record", old, rec("missing"), "", true, false, "", "without an alarm to confirm"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			summary, args, rerun := filepath.Join(dir, "summary.md"), filepath.Join(dir, "args"), filepath.Join(dir, "rerun")
			out, stderr, err := runScript(t, []string{"DECODEBENCH=" + db, "GITHUB_STEP_SUMMARY=" + summary, "ARGS=" + args, "RERUN=" + c.rerun}, "confirm-regression.sh", c.old, c.new, rerun, "--hw", "epyc", "--wait-lock", "30m")
			if (err != nil) != c.fails {
				t.Fatalf("err %v, want failure %v\nstdout:\n%s\nstderr:\n%s", err, c.fails, out, stderr)
			}
			got, _ := os.ReadFile(args)
			if c.reran != (len(got) > 0) {
				t.Fatalf("reproduce ran with %q, want a rerun %v", got, c.reran)
			}
			if want := "reproduce --yes --out " + rerun + " --record-path " + rerun + ".record-path --hw epyc --wait-lock 30m " + c.new; c.reran && strings.TrimSpace(string(got)) != want {
				t.Errorf("reproduce ran with %q, want %q", got, want)
			}
			s, _ := os.ReadFile(summary)
			if !strings.Contains(string(s), c.summary) || !strings.Contains(stderr, c.stderr) {
				t.Errorf("summary lacks %q or stderr %q lacks %q:\n%s", c.summary, stderr, c.stderr, s)
			}
		})
	}
}
