package scenarios

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite golden files")

func noEnv(string) (string, bool) { return "", false }

func TestShippedScenariosLoad(t *testing.T) {
	for _, name := range Shipped() {
		s, warns, err := Load(name, Options{LookupEnv: noEnv})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if w := withoutLocalWarnings(warns.Error()); w != "" {
			t.Errorf("%s: unexpected warnings: %v", name, w)
		}
		if s.Path != "embedded:"+name+".yaml" {
			t.Errorf("%s: path %q", name, s.Path)
		}
		// A CI job has minutes, not rounds (issue 33): every shipped
		// schedule looks sequentially and stops at a budget in minutes.
		if r := s.Schedule.Rounds; !r.Sequential() || r.MaxTime.Duration < time.Minute {
			t.Errorf("%s: schedule.rounds %+v: want a sequential schedule with a max_time", name, r)
		}
	}
}

func TestLoadByRecordedName(t *testing.T) {
	s, _, err := Load("embedded:llamacpp-speculative.yaml", Options{LookupEnv: noEnv})
	if err != nil || s.Path != "embedded:llamacpp-speculative.yaml" {
		t.Fatalf("load by the name a record gives: %v", err)
	}
}

func TestLoadSpeculative(t *testing.T) {
	env := map[string]string{"MODEL_DIR": "/models"}
	s, _, err := Load("llamacpp-speculative", Options{LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(s.Engine.Command, " "); !strings.Contains(got, "-m /models/target.gguf") || !strings.Contains(got, "--port ${PORT}") || !strings.HasPrefix(got, "llama-server ") {
		t.Errorf("command not expanded as expected: %s", got)
	}
	if s.Engine.Ready.Path != "/health" || s.Engine.MetricsPath != "/metrics" || s.Engine.Request.Endpoint != "/completion" {
		t.Errorf("preset defaults not applied: %+v", s.Engine)
	}
	if s.Schedule.Cooldown.Duration.Seconds() != 2 || s.Schedule.Rounds != (Rounds{Min: 5, Max: 10, Every: 5, MaxTime: Duration{10 * time.Minute}}) || s.Schedule.Warmup != 1 || s.Schedule.Requests != 3 {
		t.Errorf("schedule: %+v", s.Schedule)
	}
	if got := s.Distinguishing("draft"); len(got) != 2 {
		t.Errorf("distinguishing counters for draft: %v", got)
	}
	used := map[string]string{}
	for _, kv := range s.VarsUsed() {
		used[kv.Key] = kv.Value
	}
	if used["MODEL_DIR"] != "/models" || used["LLAMA_SERVER"] != "llama-server" {
		t.Errorf("vars used: %v", used)
	}
}

// TestLoadErrors has one case per validation error: each bad scenario must
// be refused with the message, at the line and column, given.
func TestLoadErrors(t *testing.T) {
	entries, err := os.ReadDir("testdata/bad")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if filepath.Ext(e.Name()) != ".yaml" {
			continue
		}
		t.Run(strings.TrimSuffix(e.Name(), ".yaml"), func(t *testing.T) {
			path := filepath.Join("testdata/bad", e.Name())
			_, _, err := Load(path, Options{LookupEnv: noEnv})
			if err == nil {
				t.Fatalf("loaded without error")
			}
			got := withoutLocalWarnings(err.Error()) + "\n"
			golden := strings.TrimSuffix(path, ".yaml") + ".err"
			if *update {
				os.WriteFile(golden, []byte(got), 0o644)
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("errors differ from %s\ngot:\n%s\nwant:\n%s", golden, got, want)
			}
		})
	}
}

func TestExpectation(t *testing.T) {
	tests := []struct {
		in      string
		v       float64
		holds   bool
		wantErr bool
	}{
		{"== 0", 0, true, false},
		{"==0", 1, false, false},
		{"> 0", 3, true, false},
		{"> 0", 0, false, false},
		{">= 2", 2, true, false},
		{"< 1.5", 1, true, false},
		{"<= 1", 2, false, false},
		{"!= 0", 0, false, false},
		{"!= 0", 5, true, false},
		{"0", 0, false, true},
		{"=> 1", 0, false, true},
		{"> x", 0, false, true},
	}
	for _, tt := range tests {
		e, err := ParseExpectation(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("ParseExpectation(%q) error = %v, wantErr %v", tt.in, err, tt.wantErr)
			continue
		}
		if err == nil && e.Holds(tt.v) != tt.holds {
			t.Errorf("%q.Holds(%v) = %v, want %v", tt.in, tt.v, !tt.holds, tt.holds)
		}
	}
}

func TestDisjoint(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"== 0", "> 0", true},
		{"== 0", ">= 0", false},
		{"> 0", ">= 1", false},
		{"< 5", "> 5", true},
		{"<= 5", ">= 5", false},
		{"!= 0", "== 0", true},
		{"!= 0", "!= 1", false},
		{"== 1", "== 2", true},
		{"< 1", "> 0", false},
	}
	for _, tt := range tests {
		a, _ := ParseExpectation(tt.a)
		b, _ := ParseExpectation(tt.b)
		if got := Disjoint(a, b); got != tt.want {
			t.Errorf("Disjoint(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		if got := Disjoint(b, a); got != tt.want {
			t.Errorf("Disjoint(%q, %q) = %v, want %v", tt.b, tt.a, got, tt.want)
		}
	}
}

func TestMetricSelector(t *testing.T) {
	tests := []struct {
		in     string
		name   string
		labels map[string]string
		err    bool
	}{
		{"llamacpp:spec_decode_num_drafts_total", "llamacpp:spec_decode_num_drafts_total", nil, false},
		{`llamacpp:spec_decode_num_accepted_tokens_per_pos_total{position="0"}`, "llamacpp:spec_decode_num_accepted_tokens_per_pos_total", map[string]string{"position": "0"}, false},
		{`m{a="x", b="y\"z"}`, "m", map[string]string{"a": "x", "b": `y"z`}, false},
		{"9bad", "", nil, true},
		{`m{a=x}`, "", nil, true},
		{`m{a="x"`, "", nil, true},
	}
	for _, tt := range tests {
		sel, err := ParseMetricSelector(tt.in)
		if (err != nil) != tt.err {
			t.Errorf("%q: err = %v", tt.in, err)
			continue
		}
		if err != nil {
			continue
		}
		if sel.Name != tt.name || len(sel.Labels) != len(tt.labels) {
			t.Errorf("%q: got %+v", tt.in, sel)
		}
		for k, v := range tt.labels {
			if sel.Labels[k] != v {
				t.Errorf("%q: label %s = %q, want %q", tt.in, k, sel.Labels[k], v)
			}
		}
	}
}

func TestEnvOverridesVars(t *testing.T) {
	src := []byte(strings.Replace(string(mustShipped(t)), "feature: spec-draft", "feature: x", 1))
	s, _, err := Parse("t.yaml", ".", src, Options{LookupEnv: func(k string) (string, bool) {
		if k == "LLAMA_SERVER" {
			return "/opt/llama-server", true
		}
		return "", false
	}})
	if err != nil {
		t.Fatal(err)
	}
	if s.Engine.Command[0] != "/opt/llama-server" {
		t.Errorf("env did not override vars: %q", s.Engine.Command[0])
	}
}

func TestHashIgnoresFormatting(t *testing.T) {
	src := mustShipped(t)
	a, _, err := Parse("a.yaml", ".", src, Options{LookupEnv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := Parse("a.yaml", ".", []byte("# a comment\n"+string(src)), Options{LookupEnv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	if a.Hash() != b.Hash() {
		t.Error("a comment changed the semantic hash")
	}
	c, _, err := Parse("a.yaml", ".", []byte(strings.Replace(string(src), "max_tokens: 256", "max_tokens: 64", 1)), Options{LookupEnv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	if a.Hash() == c.Hash() {
		t.Error("a changed value kept the same hash")
	}
}

func mustShipped(t *testing.T) []byte {
	t.Helper()
	b, err := ShippedSource("llamacpp-speculative")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The brief's own example writes `- Prefill throughput: prompts are short.`
// unquoted, which YAML reads as a one-entry mapping; it is kept as the
// sentence it reads as.
func TestUnmeasuredAcceptsColonSentences(t *testing.T) {
	src := strings.Replace(string(mustShipped(t)), "unmeasured:\n", "unmeasured:\n  - Prefill throughput: prompts are a few tokens long.\n", 1)
	s, _, err := Parse("t.yaml", ".", []byte(src), Options{LookupEnv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	if s.Unmeasured[0] != "Prefill throughput: prompts are a few tokens long." {
		t.Errorf("got %q", s.Unmeasured[0])
	}
	bad := strings.Replace(string(mustShipped(t)), "unmeasured:\n", "unmeasured:\n  - {a: 1, b: 2}\n", 1)
	if _, _, err := Parse("t.yaml", ".", []byte(bad), Options{LookupEnv: noEnv}); err == nil || !strings.Contains(err.Error(), "expected a sentence") {
		t.Errorf("two-entry mapping: %v", err)
	}
}

func TestHashIgnoresWhereTheFileIs(t *testing.T) {
	src := mustShipped(t)
	a, _, _ := Parse("a.yaml", ".", src, Options{LookupEnv: noEnv})
	b, _, _ := Parse("/abs/elsewhere/a.yaml", ".", src, Options{LookupEnv: noEnv})
	if a.Hash() != b.Hash() {
		t.Error("the same scenario read from another path hashes differently: resume would refuse it")
	}
}

// withoutLocalWarnings drops the warnings that depend on this machine (PATH,
// the current folder) from golden output; TestLocalWarnings covers them.
func withoutLocalWarnings(s string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, "does not resolve") || strings.Contains(l, "does not exist from the current folder") {
			continue
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "\n")
}

// A title or sentence holding a bidirectional override or an escape
// sequence is refused at load (issue 19 item 11), naming it escaped.
func TestTextRefusesBidiAndControls(t *testing.T) {
	base := string(mustShipped(t))
	for _, c := range []struct{ from, to, key string }{
		{"title: Draft-model", "title: \"Draft \\u202egnp.exe\"\nx-title: Draft-model", "title"},
		{"title: Draft-model", "title: \"ok\\x1b]0;pwned\\x07\"\nx-title: Draft-model", "title"},
		{"unmeasured:\n", "unmeasured:\n  - \"see \\u2066hidden\\u2069\"\n", "unmeasured[0]"},
	} {
		src := strings.Replace(base, c.from, c.to, 1)
		if src == base {
			t.Fatalf("%q not in the shipped scenario", c.from)
		}
		_, _, err := Parse("s.yaml", ".", []byte(src), Options{Offline: true})
		if err == nil || !strings.Contains(err.Error(), c.key+": holds") {
			t.Errorf("%s: %v", c.to, err)
		}
	}
}

// A variable the environment gives (a fleet machine's THREADS or
// MODEL_DIR) is not part of the scenario's meaning: campaigns that differ
// only in it share a hash, so history keeps them in one series and shows
// a step where the value changed; the command lines they ran differ.
func TestHashLeavesOutTheEnvironment(t *testing.T) {
	src := mustShipped(t)
	parse := func(env map[string]string) *Scenario {
		s, _, err := Parse("a.yaml", ".", src, Options{LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	a, b := parse(map[string]string{"THREADS": "2"}), parse(map[string]string{"THREADS": "1", "MODEL_DIR": "/models16"})
	if a.Hash() != b.Hash() {
		t.Error("the environment's THREADS and MODEL_DIR changed the scenario's hash")
	}
	if slices.Equal(a.Engine.Command, b.Engine.Command) {
		t.Errorf("the environment's values did not reach the command: %q", a.Engine.Command)
	}
}
