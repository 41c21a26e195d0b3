package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"golang.org/x/sys/unix"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/internal/execfile"
	"github.com/decodebench/decodebench/machine"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/scenarios"
)

// unquote expands Go's escapes in a script's argument.
func unquote(ts *testscript.TestScript, s string) string {
	v, err := strconv.Unquote(`"` + strings.ReplaceAll(s, `"`, `\"`) + `"`)
	ts.Check(err)
	return v
}

// repoRoot is the module's root, two folders above this package.
func repoRoot(ts *testscript.TestScript) string {
	wd, err := os.Getwd()
	ts.Check(err)
	return filepath.Join(wd, "..", "..")
}

// TestMain lets testscript run decodebench in-process as the
// `decodebench` command of the scripts.
//
// Every test here, and every script, takes a host lock of its own
// (DECODEBENCH_LOCK in a temporary folder, the engine registry beside it),
// never the user's: a campaign running on the host must not fail the
// tests, nor the tests touch its lock.
func TestMain(m *testing.M) {
	var tm testscript.TestingM = m
	// This binary started again by a test (a helper process, a script's
	// decodebench) runs under the lock its starter chose.
	if os.Getenv(privateLockEnv) == "" {
		dir, err := os.MkdirTemp("", "decodebench-cmd-test-")
		if err != nil {
			panic(err)
		}
		os.Setenv("DECODEBENCH_LOCK", filepath.Join(dir, "host.lock"))
		os.Setenv(privateLockEnv, "1")
		tm = privateLock{m, dir}
	}
	testscript.Main(tm, map[string]func(){
		"decodebench": func() { os.Exit(runMain(os.Args)) },
	})
}

// privateLockEnv marks the environment of a process whose DECODEBENCH_LOCK
// a test chose.
const privateLockEnv = "DECODEBENCH_TEST_PRIVATE_LOCK"

// privateLock runs the tests and removes their host lock's folder.
type privateLock struct {
	m   *testing.M
	dir string
}

func (p privateLock) Run() int {
	defer os.RemoveAll(p.dir)
	return p.m.Run()
}

// TestScripts runs the CLI scripts in testdata/script, the way cmd/go is
// tested: each is a command line, its exit status and its output. Scripts
// marked [engine] run the real llama-server on the synthetic models (make
// test provides both); without them they are skipped, except in CI, where
// a missing engine fails.
func TestScripts(t *testing.T) {
	server, models := os.Getenv("DECODEBENCH_LLAMA_SERVER"), os.Getenv("DECODEBENCH_MODELS")
	haveEngine := server != "" && models != ""
	here := sync.OnceValue(func() string {
		id, _ := machine.Identify(context.Background())
		return id.Slug
	})
	if !haveEngine && os.Getenv("CI") != "" {
		t.Fatal("CLI scripts need the real engine in CI: run them through `make test`")
	}
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join("testdata", "script"),
		Setup: func(env *testscript.Env) error {
			env.Setenv("LLAMA_SERVER", server)
			env.Setenv("MODEL_DIR", models)
			env.Setenv("XDG_CACHE_HOME", filepath.Join(env.WorkDir, ".cache"))
			env.Setenv("DECODEBENCH_LOCK", filepath.Join(env.WorkDir, "host.lock"))
			env.Setenv(privateLockEnv, "1")
			return nil
		},
		Condition: func(cond string) (bool, error) {
			if cond == "engine" {
				return haveEngine, nil
			}
			// [hardware:NAME]: this machine's hardware slug is NAME.
			if name, ok := strings.CutPrefix(cond, "hardware:"); ok {
				return here() == name, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// cprecord NAME DIR copies the committed record NAME (from
			// docs/benchmark_results) and its data folder into DIR: real
			// records for the scripts that need no engine.
			// cprecord NAME DIR STEM copies it under another name, its
			// data folder and links renamed: one campaign as two records.
			"cprecord": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 2 && len(args) != 3 {
					ts.Fatalf("usage: cprecord NAME DIR [STEM]")
				}
				src := filepath.Join(repoRoot(ts), "docs", "benchmark_results")
				dst := ts.MkAbs(args[1])
				stem := args[0]
				if len(args) == 3 {
					stem = args[2]
				}
				ts.Check(os.MkdirAll(filepath.Join(dst, "data"), 0o755))
				b, err := os.ReadFile(filepath.Join(src, args[0]+".md"))
				ts.Check(err)
				b = bytes.ReplaceAll(b, []byte("data/"+args[0]), []byte("data/"+stem))
				ts.Check(os.WriteFile(filepath.Join(dst, stem+".md"), b, 0o644))
				ts.Check(os.CopyFS(filepath.Join(dst, "data", stem), os.DirFS(filepath.Join(src, "data", args[0]))))
			},
			// mkexec FILE... makes each FILE (unpacked by testscript in
			// this process) an executable new file, written by a child
			// process: chmod alone leaves the file testscript wrote, which
			// a command started meanwhile by a parallel script may hold
			// open for writing ("text file busy"; see internal/execfile).
			"mkexec": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) == 0 {
					ts.Fatalf("usage: mkexec FILE...")
				}
				for _, a := range args {
					ts.Check(execfile.Remake(ts.MkAbs(a), 0o755))
				}
			},
			// cptree REL DIR copies the repository's folder REL (e.g.
			// history/testdata/layers: real records and their data
			// folders) into DIR.
			"cptree": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 2 {
					ts.Fatalf("usage: cptree REL DIR")
				}
				ts.Check(os.CopyFS(ts.MkAbs(args[1]), os.DirFS(filepath.Join(repoRoot(ts), filepath.FromSlash(args[0])))))
			},
			// resum RECORD FILE writes the sha256 of FILE in RECORD's data
			// folder into RECORD's list of files: a tampered data file
			// that the record vouches for, as a hostile record would.
			"resum": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 2 {
					ts.Fatalf("usage: resum RECORD FILE")
				}
				rec := ts.MkAbs(args[0])
				data, err := os.ReadFile(filepath.Join(filepath.Dir(rec), "data", strings.TrimSuffix(filepath.Base(rec), ".md"), args[1]))
				ts.Check(err)
				sum := sha256.Sum256(data)
				b, err := os.ReadFile(rec)
				ts.Check(err)
				re := regexp.MustCompile(`("path": "` + regexp.QuoteMeta(args[1]) + `",\s*"sha256": ")[0-9a-f]+`)
				if !re.Match(b) {
					ts.Fatalf("resum: %s names no sha256 for %s", args[0], args[1])
				}
				b = re.ReplaceAll(b, []byte("${1}"+hex.EncodeToString(sum[:])))
				ts.Check(os.WriteFile(rec, b, 0o644))
			},
			// rerender RECORD analyses RECORD's runs again under its
			// stored scenario and writes the record back, the sha256 of
			// every data file included: a record forged with decodebench's
			// own code, consistent in every part but what its stored
			// scenario hashes to.
			"rerender": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 1 {
					ts.Fatalf("usage: rerender RECORD")
				}
				path := ts.MkAbs(args[0])
				rec, err := recorder.Load(path)
				ts.Check(err)
				dataDir, err := recorder.DataPath(path, rec)
				ts.Check(err)
				src, err := os.ReadFile(filepath.Join(dataDir, recorder.ScenarioFile))
				ts.Check(err)
				s, _, err := scenarios.Parse(recorder.ScenarioFile, dataDir, src, scenarios.Options{Offline: true, PromptText: rec.Scenario.Request.Prompt, Set: rec.Scenario.Overrides})
				ts.Check(err)
				rec.Analysis, rec.Verdict, err = analysis.Record(s.Policy, rec.Runs, rec.Method, rec.Schema)
				ts.Check(err)
				rec.Files, err = recorder.HashDataDir(dataDir)
				ts.Check(err)
				ts.Check(recorder.WriteFile(path, rec))
			},
			// readenv VAR FILE sets VAR to FILE's first line: a path a
			// command wrote for the next (reproduce --record-path).
			"readenv": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 2 {
					ts.Fatalf("usage: readenv VAR FILE")
				}
				b, err := os.ReadFile(ts.MkAbs(args[1]))
				ts.Check(err)
				line, _, _ := strings.Cut(string(b), "\n")
				ts.Setenv(args[0], line)
			},
			// mkfifo PATH makes a named pipe.
			"mkfifo": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 1 {
					ts.Fatalf("usage: mkfifo PATH")
				}
				ts.Check(unix.Mkfifo(ts.MkAbs(args[0]), 0o644))
			},
			// printf FILE TEXT writes TEXT to FILE, Go's escapes (\x1b,
			// \r, \u202e) expanded in both: file names and contents that
			// hold control characters.
			"printf": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 2 {
					ts.Fatalf("usage: printf FILE TEXT")
				}
				ts.Check(os.WriteFile(ts.MkAbs(unquote(ts, args[0])), []byte(unquote(ts, args[1])), 0o644))
			},
			// setq VAR VALUE sets VAR to VALUE with Go's escapes expanded.
			"setq": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 2 {
					ts.Fatalf("usage: setq VAR VALUE")
				}
				ts.Setenv(args[0], unquote(ts, args[1]))
			},
			// mvq SRC DST renames with Go escapes expanded in DST.
			"mvq": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 2 {
					ts.Fatalf("usage: mvq SRC DST")
				}
				ts.Check(os.Rename(ts.MkAbs(args[0]), ts.MkAbs(unquote(ts, args[1]))))
			},
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
