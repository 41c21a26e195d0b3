package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/internal/execfile"
)

// A shell script without markers is read for the binary it runs: its exec
// line's program, written out or found on the engine's PATH, assignments,
// exec's options and env skipped; where that cannot be told without
// running it, identifying it says so and how to name the binary.
func TestScriptTargetNamesTheBinaryItRuns(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	os.MkdirAll(bin, 0o755)
	server := filepath.Join(bin, "my-server")
	execfile.Write(server, []byte("\x7fELF not really"), 0o755)
	env := []string{"PATH=" + bin}
	tests := []struct {
		name, script, target, problem string
	}{
		{"exec by path", "#!/bin/sh\nset -e\nexport OMP_NUM_THREADS=2\nexec " + server + " \"$@\"\n", server, ""},
		{"exec with options and env", "#!/usr/bin/env bash\nexec -a llama env -i A=1 B='x y' \\\n  " + server + " --flag \"$@\"\n", server, ""},
		{"by name on PATH", "#!/bin/bash\nLD_LIBRARY_PATH=/x exec my-server \"$@\"\n", "", "names no program"},
		{"exec by name", "#!/bin/bash\nexec my-server \"$@\"\n", server, ""},
		{"no exec, a path", "#!/bin/sh\ncd /tmp\n" + server + " \"$@\"\n", server, ""},
		{"through a variable", "#!/bin/sh\nBIN=" + server + "\nexec \"$BIN\" \"$@\"\n", "", "named through a variable"},
		{"through a launcher", "#!/bin/sh\nexec nice -n 5 " + server + "\n", "", "through nice"},
		{"two programs", "#!/bin/sh\nif [ -n \"$A\" ]; then\n  exec " + server + "\nelse\n  exec /bin/true\nfi\n", "", "2 different programs"},
		{"no exec, a name", "#!/bin/sh\necho 'srv build 1'\n", "", "names no program by path"},
		{"missing binary", "#!/bin/sh\nexec /nonexistent/llama-server \"$@\"\n", "", "runs /nonexistent/llama-server, which does not resolve"},
		{"not a shell", "#!/usr/bin/python3\nimport os\nos.execv('/bin/true', ['x'])\n", "", ""},
		{"not a script", "\x7fELF", "", ""},
	}
	for _, tt := range tests {
		path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-"))
		execfile.Write(path, []byte(tt.script), 0o755)
		target, problem := scriptTarget(path, env)
		if target != tt.target || !strings.Contains(problem, tt.problem) || (tt.problem == "") != (problem == "") {
			t.Errorf("%s: got %q, %q; want %q and a problem saying %q", tt.name, target, problem, tt.target, tt.problem)
		}
		if problem != "" && strings.Contains(problem, "identified by its own hash only") && !strings.Contains(problem, RealBinaryMarker+"PATH") {
			t.Errorf("%s: no way to name the binary given: %s", tt.name, problem)
		}
	}
}

// An engine that resolves but cannot run is not identified: a wrapper
// copied away from the files it names relative to itself (its binary is
// not hashable, and its --version exits 127), and a script whose program
// is missing.
func TestIdentifyRefusesAnEngineThatCannotRun(t *testing.T) {
	dir := t.TempDir()
	copied := filepath.Join(dir, "bin", "llama-server")
	os.MkdirAll(filepath.Dir(copied), 0o755)
	execfile.Write(copied, []byte("#!/bin/sh\n"+RealBinaryMarker+"../root/usr/bin/llama-server\np=$(dirname -- \"$0\")/..\nexec \"$p/root/usr/bin/llama-server\" \"$@\"\n"), 0o755)
	missing := filepath.Join(dir, "missing.sh")
	execfile.Write(missing, []byte("#!/bin/sh\nexec /nonexistent/llama-server \"$@\"\n"), 0o755)
	fine := filepath.Join(dir, "fine.sh")
	execfile.Write(fine, []byte("#!/bin/sh\necho 'fine 1'\nexit 2\n"), 0o755)
	for path, want := range map[string][]string{
		copied:  {"the binary it runs, " + filepath.Join(dir, "root/usr/bin/llama-server"), "exited with status 127"},
		missing: {"exited with status 127", "not found"},
	} {
		id, _, err := IdentifyExecuted(context.Background(), path, os.Environ(), "")
		var ue *UnidentifiedError
		if !errors.As(err, &ue) {
			t.Errorf("%s: identified (%v), problems %q", path, err, id.Problems)
			continue
		}
		for _, w := range want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v lacks %q", path, err, w)
			}
		}
	}
	// A --version that fails otherwise (exit 2) is a problem, not a refusal.
	if id, _, err := IdentifyExecuted(context.Background(), fine, os.Environ(), ""); err != nil || id.SHA256 == "" {
		t.Errorf("an engine whose --version exits 2: %v", err)
	}
}

// A user's wrapper script that runs the install's wrapper is identified
// by the binary that one names, and its libraries.
func TestUserWrapperOfTheInstallNamesItsBinary(t *testing.T) {
	server := os.Getenv("DECODEBENCH_LLAMA_SERVER")
	if server == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("needs the real engine in CI: run through make test")
		}
		t.Skip("DECODEBENCH_LLAMA_SERVER not set")
	}
	real, _ := wrapperMarkers(server)
	if real == "" {
		t.Skipf("%s is not an install of scripts/install-llama-server.sh", server)
	}
	real, _ = filepath.EvalSymlinks(real)
	mine := filepath.Join(t.TempDir(), "my-llama")
	execfile.Write(mine, []byte("#!/bin/sh\nexport LLAMA_ARG_THREADS=1\nexec "+server+" \"$@\"\n"), 0o755)
	id, _, err := IdentifyExecuted(context.Background(), mine, os.Environ(), "")
	if err != nil || id.RealBinary != real || id.RealSHA256 == "" || len(id.Libraries) == 0 {
		t.Errorf("identity of a user's wrapper: %v, wrapped %q (want %q), %d libraries, problems %q", err, id.RealBinary, real, len(id.Libraries), id.Problems)
	}
}
