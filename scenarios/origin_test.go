package scenarios

import (
	"strings"
	"testing"
)

const originScenario = `feature: o
vars: {SERVER: no-such-server-here}
engine:
  preset: llama.cpp
  command: ["${SERVER}", -m, "${NOPE}/m.gguf", --port, "${PORT}"]
  request: {prompt: "Once", max_tokens: 8}
arms:
  - name: a
  - name: b
    args: [-t, "2"]
baseline: a
schedule: {rounds: 3}
allow_unverified: "a test of origins"
unmeasured:
  - Everything.
`

// A record's stored scenario, known by the path it ran from, shows its
// problems in the copy the user can open (its data folder's
// scenario.yaml), with --var the way to set a variable; the record keeps
// the path (Stored). It showed "embedded:…" and said to set variables in
// the environment.
func TestOriginOfAStoredScenario(t *testing.T) {
	o := Origin{File: "rec/data/x/scenario.yaml", VarFlag: true}
	_, _, err := Parse("embedded:x.yaml", ".", []byte(originScenario), Options{LookupEnv: noEnv, Origin: o})
	es, ok := err.(Errors)
	if !ok || len(es) == 0 {
		t.Fatalf("got %v", err)
	}
	e := es.Fatal()[0]
	if got, want := e.Error(), "rec/data/x/scenario.yaml:5:30: engine.command[2]: ${NOPE} is not defined: give --var NOPE=<its value on this machine>"; got != want {
		t.Errorf("shown %q, want %q", got, want)
	}
	if got := e.Stored(); !strings.HasPrefix(got, "embedded:x.yaml:5:30: ") {
		t.Errorf("stored %q", got)
	}
	src := strings.Replace(originScenario, `"${NOPE}/m.gguf"`, "m.gguf", 1)
	s, _, err := Parse("embedded:x.yaml", ".", []byte(src), Options{LookupEnv: noEnv, Origin: o})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.EngineHint("b"), "rec/data/x/scenario.yaml:5:13: engine.command[0]: give --var SERVER=<its path>, or put it on PATH"; got != want {
		t.Errorf("hint %q, want %q", got, want)
	}
	if s.Path != "embedded:x.yaml" {
		t.Errorf("path %q: the record's is the one it ran from", s.Path)
	}
}

// A scenario compare generates shows its problems at what on compare's
// command line a key came from, and no line of a file never written.
func TestOriginOfAGeneratedScenario(t *testing.T) {
	a := CompareArms{Base: []string{"no-such-base", "-m", "m.gguf"}, Head: []string{"no-such-head", "-m", "m.gguf"}, Rounds: 3}
	s, warns, err := Parse("compare.yaml", ".", Compare(a), Options{Origin: CompareOrigin(a, true, nil)})
	if err != nil {
		t.Fatal(err)
	}
	shown := warns.Error()
	for _, want := range []string{
		`compare --base: warning: engine.command[0]: engine binary "no-such-base" does not resolve on PATH: name it by a path that exists (compare --base), or put it on PATH`,
		`compare --head: warning: arms[1].engine.command[0]: engine binary "no-such-head"`,
		`compare, argument 2 after --: warning: arms[1].engine.command[2]: "m.gguf" does not exist from the current folder`,
	} {
		if !strings.Contains(shown, want) {
			t.Errorf("no %q in:\n%s", want, shown)
		}
	}
	if strings.Contains(shown, "compare.yaml") || strings.Contains(shown, "the variable it is built from") {
		t.Errorf("a file or variables that are not there:\n%s", shown)
	}
	if got := s.EngineHint("head"); !strings.HasPrefix(got, "compare --head: arms[1].engine.command[0]: name it by a path that exists (compare --head)") {
		t.Errorf("hint %q", got)
	}
	if got := CompareOrigin(a, false, nil).Generated("arms[1].engine.command[0]"); got != "compare, word 1 of the head command line" {
		t.Errorf("two command lines: %q", got)
	}
}

// run's hint is the scenario's own variable, set in the environment, at
// the file and line that name the binary: never ${LLAMA_SERVER} for a
// scenario that does not take it.
func TestEngineHintOfAFile(t *testing.T) {
	src := strings.Replace(originScenario, `"${NOPE}/m.gguf"`, "m.gguf", 1)
	s, _, err := Parse("s.yaml", ".", []byte(src), Options{LookupEnv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.EngineHint("a"), "s.yaml:5:13: engine.command[0]: set SERVER to its path, or put it on PATH"; got != want {
		t.Errorf("hint %q, want %q", got, want)
	}
}
