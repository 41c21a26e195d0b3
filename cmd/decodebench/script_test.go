package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets testscript run decodebench in-process as the
// `decodebench` command of the scripts.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"decodebench": func() { os.Exit(runMain(os.Args)) },
	})
}

// TestScripts runs the CLI scripts in testdata/script, the way cmd/go is
// tested: each is a command line, its exit status and its output. Scripts
// marked [engine] run the real llama-server on the synthetic models (make
// test provides both); without them they are skipped, except in CI, where
// a missing engine fails.
func TestScripts(t *testing.T) {
	server, models := os.Getenv("DECODEBENCH_LLAMA_SERVER"), os.Getenv("DECODEBENCH_MODELS")
	haveEngine := server != "" && models != ""
	if !haveEngine && os.Getenv("CI") != "" {
		t.Fatal("CLI scripts need the real engine in CI: run them through `make test`")
	}
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join("testdata", "script"),
		Setup: func(env *testscript.Env) error {
			env.Setenv("LLAMA_SERVER", server)
			env.Setenv("MODEL_DIR", models)
			env.Setenv("XDG_CACHE_HOME", filepath.Join(env.WorkDir, ".cache"))
			return nil
		},
		Condition: func(cond string) (bool, error) {
			if cond == "engine" {
				return haveEngine, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// replace FILE REGEXP REPLACEMENT edits the first match, and
			// fails when nothing matches, so a tampering step cannot
			// silently tamper with nothing.
			"replace": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 3 {
					ts.Fatalf("usage: replace FILE REGEXP REPLACEMENT")
				}
				path := ts.MkAbs(args[0])
				b, err := os.ReadFile(path)
				ts.Check(err)
				re, err := regexp.Compile(args[1])
				ts.Check(err)
				loc := re.FindSubmatchIndex(b)
				if loc == nil {
					ts.Fatalf("replace: %q matches nothing in %s", args[1], args[0])
				}
				var out []byte
				out = re.Expand(out, []byte(args[2]), b, loc)
				edited := append(append(append([]byte{}, b[:loc[0]]...), out...), b[loc[1]:]...)
				ts.Check(os.WriteFile(path, edited, 0o644))
			},
		},
	})
}
