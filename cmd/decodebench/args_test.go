package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

func TestReorderArgs(t *testing.T) {
	app := newApp()
	for _, tt := range []struct {
		in, want string
		err      string // substring of the usage error
		note     string // substring of a note
	}{
		{in: "run s.yaml --out DIR", want: "run --out DIR -- s.yaml"},
		{in: "run s.yaml --out=DIR --json", want: "run --out=DIR --json -- s.yaml"},
		{in: "run --json s.yaml --hw x", want: "run --json --hw x -- s.yaml"},
		{in: "run s.yaml --json=false", want: "run --json=false -- s.yaml"},
		// A bool flag takes no value: the argument after it stays one.
		{in: "run --json s.yaml", want: "run --json -- s.yaml"},
		// A value that looks like a flag is still the flag's value.
		{in: "identity a --strip -x b", want: "identity --strip -x -- a b"},
		{in: "identity a --arm x --arm y", want: "identity --arm x --arm y -- a"},
		{in: "export rec.md --format benchstat", want: "export --format benchstat -- rec.md"},
		{in: "run -out DIR s.yaml", want: "run -out DIR -- s.yaml"},
		{in: "run --resume D", want: "run --resume D"},
		{in: "validate a.yaml -", want: "validate -- a.yaml -"},
		{in: "validate a.yaml -- --weird.yaml", want: "validate -- a.yaml --weird.yaml"},
		{in: "run s.yaml -- --json", want: "run -- s.yaml --json", note: "--json follows `--`"},
		{in: "run s.yaml --help", want: "run --help"},
		{in: "run s.yaml -h --bogus", want: "run --help"},
		{in: "--version", want: "--version"},
		{in: "", want: ""},
		{in: "help run", want: "run --help"},
		{in: "help", want: "--help"},
		{in: "run s.yaml --bogus", err: "flag --bogus is not understood"},
		{in: "validate x.yaml --json", want: "validate --json -- x.yaml"},
		{in: "validate x.yaml --bogus", err: "validate: flag --bogus is not understood"},
		{in: "run s.yaml --out", err: "flag --out needs a value"},
		// --github-summary [FILE]: an argument after it is its value when
		// the command keeps its scenario without it.
		{in: "run --github-summary s.yaml", want: "run --github-summary -- s.yaml"},
		{in: "run --github-summary sum.md s.yaml", want: "run --github-summary=sum.md -- s.yaml"},
		{in: "run s.yaml --github-summary sum.md", want: "run --github-summary=sum.md -- s.yaml"},
		{in: "run s.yaml --github-summary=sum.md --json", want: "run --github-summary=sum.md --json -- s.yaml"},
		{in: "run --github-summary=false s.yaml", want: "run --github-summary=false -- s.yaml"},
		{in: "frobnicate", err: `unknown command "frobnicate"; commands: ` + commandList(app) + ` (decodebench --help describes them)`},
		{in: "list --all", err: `unknown command "list"`},
		{in: "help list", err: `no help for "list"`},
		{in: "--out x run s.yaml", err: "flag --out is not understood here"},
	} {
		args := append([]string{"decodebench"}, strings.Fields(tt.in)...)
		got, notes, err := reorderArgs(app, args)
		if tt.err != "" {
			var ee *exitError
			if err == nil || !strings.Contains(err.Error(), tt.err) || !errors.As(err, &ee) || ee.code != exitUsage {
				t.Errorf("%q: error %v, want exit %d with %q", tt.in, err, exitUsage, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		if g := strings.Join(got[1:], " "); g != tt.want {
			t.Errorf("%q: got %q, want %q", tt.in, g, tt.want)
		}
		if n := strings.Join(notes, "\n"); (tt.note == "") != (n == "") || !strings.Contains(n, tt.note) {
			t.Errorf("%q: notes %q, want %q", tt.in, n, tt.note)
		}
	}
}

// The whole CLI, in process: flags after the arguments reach the command,
// usage errors exit 64.
func TestRunMainFlagOrderAndUsage(t *testing.T) {
	src, err := os.ReadFile("../../scenarios/llamacpp-speculative.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	scen := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(scen, src, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		code int
	}{
		{[]string{"validate", scen}, 0},
		{[]string{"validate", scen, "--help"}, 0},
		{[]string{"validate", scen, "--json"}, 0}, // --json after the file is the flag, not a file name
		{[]string{"frobnicate"}, exitUsage},
		{[]string{"list"}, exitUsage},
		{[]string{"run"}, exitUsage},
		{[]string{"run", "a", "b"}, exitUsage},
		{[]string{"run", scen, "--bogus"}, exitUsage},
		{[]string{"export"}, exitUsage},
		{[]string{"export", "r.md", "--format", "csv"}, exitUsage},
		// --resume after the argument is parsed as --resume: the folder is
		// not a campaign, an ordinary error, not "name exactly one".
		{[]string{"run", scen, "--resume", dir}, 1},
	} {
		if got := runMain(append([]string{"decodebench"}, tt.args...)); got != tt.code {
			t.Errorf("decodebench %s: exit %d, want %d", strings.Join(tt.args, " "), got, tt.code)
		}
	}
}

// The binary itself: stderr names the command list and the code is 64.
func TestUnknownCommandBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "decodebench")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	var stderr bytes.Buffer
	cmd := exec.Command(bin, "frobnicate")
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitUsage {
		t.Fatalf("decodebench frobnicate: %v, want exit %d", err, exitUsage)
	}
	for _, c := range newApp().Commands {
		if !c.Hidden && !strings.Contains(stderr.String(), " "+c.Name+",") && !strings.Contains(stderr.String(), " "+c.Name+" (") {
			t.Errorf("stderr does not list command %s: %q", c.Name, stderr.String())
		}
	}
	if !strings.Contains(stderr.String(), "commands: run, validate, check, ") {
		t.Errorf("stderr does not list the commands: %q", stderr.String())
	}
}

func TestSummaryTextShowsLogLines(t *testing.T) {
	rec := &schema.Record{
		Verdict:  schema.Failed,
		Analysis: schema.Analysis{Reasons: []schema.Reason{schema.RunFailed{Run: 2, Round: 1, Arm: "b", Error: "engine exited while starting (exit status 1); last engine log lines:"}}},
		Runs: []schema.Run{
			{Seq: 1, Arm: "a"},
			{Seq: 2, Arm: "b", Log: "logs/run-002-b.log", Error: "engine exited while starting (exit status 1); last engine log lines:\n    load_model: failed to open model\n    main: exiting"},
		},
	}
	var buf bytes.Buffer
	printSummaryText(&buf, rec)
	got := buf.String()
	for _, want := range []string{"  Run 2 (`b`, round 1) failed: engine exited while starting (exit status 1)\n", "last engine log lines of run 2 (b, logs/run-002-b.log):\n      load_model: failed to open model\n      main: exiting\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "lines:\n  ") && !strings.Contains(got, "log):\n      ") {
		t.Errorf("a reason ends on a dangling colon:\n%s", got)
	}
}
