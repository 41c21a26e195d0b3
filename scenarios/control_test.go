package scenarios

import (
	"os"
	"strings"
	"testing"
)

// A negative control is held to the baseline's args and environment as
// they expand: the baseline's "${THREADS}" is a control's "4" where
// THREADS is 4, and another value is refused. A stored scenario (read
// offline, as it ran) is not held to it.
func TestControlComparedExpanded(t *testing.T) {
	b, err := os.ReadFile("testdata/bad/control-not-baseline.yaml")
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(string(b), "  MODEL: m.gguf\n", "  MODEL: m.gguf\n  THREADS: \"4\"\n", 1)
	src = strings.Replace(src, "    args: [--spec-type, none]\n", "    args: [--spec-type, none, -t, \"${THREADS}\"]\n", 1)
	src = strings.Replace(src, "    env: {LLAMA_ARG_THREADS: \"2\"}\n", "", 1)
	for _, c := range []struct {
		args    string
		offline bool
		refused bool
	}{
		{"[--spec-type, none, -t, \"4\"]", false, false},
		{"[--spec-type, none, -t, \"${THREADS}\"]", false, false},
		{"[--spec-type, none, -t, \"5\"]", false, true},
		{"[--spec-type, none, -t, \"5\"]", true, false},
	} {
		s := strings.Replace(src, "    args: [--spec-type, ngram-simple]\n", "    args: "+c.args+"\n", 1)
		_, _, err := Parse("c.yaml", ".", []byte(s), Options{LookupEnv: func(string) (string, bool) { return "", false }, Offline: c.offline})
		if refused := err != nil && strings.Contains(err.Error(), "negative control runs the baseline's settings"); refused != c.refused {
			t.Errorf("control args %s (offline %v): refused %v, want %v: %v", c.args, c.offline, refused, c.refused, err)
		}
	}
}

// A file ending in an empty document ("---", or "---" and a comment)
// holds nothing that could be ignored, and loads; a second document that
// holds anything is refused at its line.
func TestEmptyTrailingDocument(t *testing.T) {
	b, err := os.ReadFile("testdata/bad/control-not-baseline.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ok := strings.Replace(string(b), "    args: [--spec-type, ngram-simple]\n    env: {LLAMA_ARG_THREADS: \"2\"}\n", "    args: [--spec-type, none]\n", 1)
	for _, c := range []struct {
		tail    string
		refused bool
	}{
		{"---\n", false},
		{"---\n# nothing after\n", false},
		{"---\n...\n---\n", false},
		{"---\nbogus: 1\n", true},
		{"---\n# a comment\n---\nbogus: 1\n", true},
	} {
		_, _, err := Parse("d.yaml", ".", []byte(ok+c.tail), Options{LookupEnv: func(string) (string, bool) { return "", false }})
		if refused := err != nil && strings.Contains(err.Error(), "a second YAML document"); refused != c.refused || (!refused && err != nil) {
			t.Errorf("tail %q: %v, want refused %v", c.tail, err, c.refused)
		}
	}
}

// A negative control is held to the whole of the baseline's launch as it
// expands: its engine's fixed arguments, its engine's environment, its
// version command and its concurrency, besides its args and environment.
// Its binary may be another path (a copy, which the run compares by
// hash). A stored scenario (read offline, as it ran) is not held to it.
func TestControlLaunchIsTheBaselines(t *testing.T) {
	const src = `feature: ctl
vars: {BIN: ./eng.sh, T: "4"}
engine:
  preset: llama.cpp
  command: ["${BIN}", -t, "${T}", -np, "2", --port, "${PORT}"]
  env: {OMP_NUM_THREADS: "${T}"}
  request: {prompt: p, max_tokens: 8}
arms:
  - name: a
    args: [--spec-type, none]
  - name: ctl
    control: true
    args: [--spec-type, none]
CONTROL
  - name: b
    args: [--spec-type, ngram-simple]
baseline: a
allow_unverified: test
unmeasured: [nothing]
`
	for _, c := range []struct {
		control string
		offline bool
		refused string
	}{
		{"", false, ""},
		{`    engine: {command: ["./copy/eng.sh", -t, "4", -np, "2", --port, "${PORT}"]}`, false, ""},
		{`    engine: {command: ["${BIN}", -t, "${T}", -np, "2", --port, "${PORT}"], env: {OMP_NUM_THREADS: "4"}}`, false, ""},
		{`    engine: {command: ["${BIN}", -t, "5", -np, "2", --port, "${PORT}"]}`, false, "its engine's fixed arguments ([-t 5 -np 2 --port ${PORT}]; the baseline's: [-t 4 -np 2 --port ${PORT}]) differ"},
		{`    engine: {command: ["${BIN}", -t, "4", -np, "2", --port, "${PORT}", --turbo]}`, false, "its engine's fixed arguments"},
		{`    engine: {command: ["${BIN}", -t, "4", -np, "2", --port, "${PORT}", --turbo]}`, true, ""},
		{`    engine: {env: {OMP_NUM_THREADS: "8"}}`, false, "its environment and its engine's environment differ"},
		{`    engine: {env: {OMP_NUM_THREADS: "8"}}`, true, ""},
		{"    engine: {env: {}}\n    env: {OMP_NUM_THREADS: \"4\"}", false, "its engine's environment differs"},
		{`    engine: {version_command: ["${BIN}", --version]}`, false, "its version command differs"},
		{`    concurrency: 2`, false, "its concurrency (2) is not baseline a's (1)"},
		{`    concurrency: 2`, true, ""},
	} {
		s := strings.Replace(src, "CONTROL\n", c.control+"\n", 1)
		if c.control == "" {
			s = strings.Replace(src, "CONTROL\n", "", 1)
		}
		_, _, err := Parse("c.yaml", ".", []byte(s), Options{LookupEnv: noEnv, Offline: c.offline})
		switch {
		case c.refused == "" && err != nil:
			t.Errorf("%s (offline %v): refused: %v", c.control, c.offline, err)
		case c.refused != "" && (err == nil || !strings.Contains(err.Error(), "c.yaml:12:") || !strings.Contains(err.Error(), c.refused)):
			t.Errorf("%s: want a refusal at arms[1].control (line 12) saying %q, got %v", c.control, c.refused, err)
		}
	}
}

// A control's own counter expectation must be the baseline's (written
// alike or not): the gate judges the control by it. A control that gives
// none takes the baseline's; one the baseline lacks is refused. A stored
// scenario is not held to it.
func TestControlExpectationIsTheBaselines(t *testing.T) {
	const src = `feature: ctl
engine:
  kind: command
  command: [./eng.sh]
  output: {metrics: {decode_tok_s: 'tok/s ([0-9.]+)'}}
arms:
  - {name: a, args: ["1"]}
  - {name: ctl, control: true, args: ["1"]}
  - {name: b, args: ["2"]}
baseline: a
counters:
  - name: armno
    log: 'arm=([0-9]+)'
    expect: EXPECT
unmeasured: [nothing]
`
	for _, c := range []struct {
		expect  string
		offline bool
		refused string
	}{
		{`{a: "== 1", b: "== 2"}`, false, ""},
		{`{a: "== 1", b: "== 2", ctl: "==1.0"}`, false, ""},
		{`{"*": "== 1", b: "== 2"}`, false, ""},
		{`{a: "== 1", b: "== 2", ctl: "== 2"}`, false, `counters[0].expect.ctl: a negative control is judged as the baseline: "== 2" is not baseline a's "== 1"`},
		{`{a: "== 1", b: "== 2", ctl: ">= 1"}`, false, `">= 1" is not baseline a's "== 1"`},
		{`{a: "== 1", b: "== 2", ctl: "== 2"}`, true, ""},
		{`{b: "== 2", ctl: "== 1"}`, false, `baseline a has no expectation for counter "armno"`},
	} {
		s := strings.Replace(src, "EXPECT", c.expect, 1)
		_, _, err := Parse("c.yaml", ".", []byte(s), Options{LookupEnv: noEnv, Offline: c.offline})
		switch {
		case c.refused == "" && err != nil && strings.Contains(err.Error(), "negative control"):
			t.Errorf("%s (offline %v): refused: %v", c.expect, c.offline, err)
		case c.refused != "" && (err == nil || !strings.Contains(err.Error(), "c.yaml:14:") || !strings.Contains(err.Error(), c.refused)):
			t.Errorf("%s: want a refusal at line 14 saying %q, got %v", c.expect, c.refused, err)
		}
	}
}
