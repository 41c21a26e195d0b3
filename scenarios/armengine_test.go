package scenarios

import (
	"strings"
	"testing"
)

// Two arms of one command run different engines when their environments
// differ in what the command executes or loads (the loaders' variables,
// GGML_BACKEND_PATH, PATH for a bare name), and the same engine when they
// differ in anything else.
func TestEngineKeyHoldsWhatTheEnvironmentChanges(t *testing.T) {
	for _, c := range []struct {
		command, a, b string
		same          bool
	}{
		{"/opt/srv", "LD_LIBRARY_PATH: /a", "LD_LIBRARY_PATH: /b", false},
		{"/opt/srv", "LD_PRELOAD: /a.so", "{}", false},
		{"/opt/srv", "DYLD_LIBRARY_PATH: /a", "DYLD_LIBRARY_PATH: /b", false},
		{"/opt/srv", "DYLD_INSERT_LIBRARIES: /a.dylib", "{}", false},
		{"/opt/srv", "GGML_BACKEND_PATH: /a.so", "GGML_BACKEND_PATH: /b.so", false},
		{"srv", "PATH: /a", "PATH: /b", false},
		{"/opt/srv", "PATH: /a", "PATH: /b", true},
		{"/opt/srv", "GGML_CUDA_FORCE_MMQ: '1'", "{}", true},
	} {
		env := func(kv string) string {
			if kv == "{}" {
				return kv
			}
			return "{" + kv + "}"
		}
		src := `feature: t
engine:
  preset: llama.cpp
  command: [` + c.command + `, --port, "${PORT}"]
  request: {prompt: p, max_tokens: 8}
arms:
  - {name: a, env: ` + env(c.a) + `}
  - {name: b, env: ` + env(c.b) + `, args: [--b]}
baseline: a
schedule: {rounds: 6}
counters:
  - {name: c, json: x, expect: {a: "== 0", b: "> 0"}}
unmeasured: [nothing]
`
		s, _, err := Parse("t.yaml", ".", []byte(src), Options{LookupEnv: func(string) (string, bool) { return "", false }})
		if err != nil {
			t.Fatalf("%s vs %s: %v", c.a, c.b, err)
		}
		a, b := s.Launch("a"), s.Launch("b")
		if same := a.EngineKey() == b.EngineKey(); same != c.same || (len(s.Engines()) == 1) != c.same {
			t.Errorf("%s: %s vs %s: same engine %v (%d engines), want %v; loader env %q vs %q",
				c.command, c.a, c.b, same, len(s.Engines()), c.same, a.LoaderEnv(), b.LoaderEnv())
		}
		if !c.same && strings.Join(a.LoaderEnv(), "") == strings.Join(b.LoaderEnv(), "") {
			t.Errorf("%s vs %s: the loader environments %q are the same", c.a, c.b, a.LoaderEnv())
		}
	}
}
