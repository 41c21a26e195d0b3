package scenarios

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/decodebench/decodebench/internal/execfile"
)

func withPromptFile(t *testing.T, path string) string {
	t.Helper()
	return strings.Replace(string(mustShipped(t)), `prompt: "Once upon a time"`, "prompt_file: "+path, 1)
}

// A prompt file must be a regular file under the size limit; special files
// are refused without blocking.
func TestPromptFileMustBeRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.txt")
	os.WriteFile(big, make([]byte, MaxPromptBytes+1), 0o644)
	link := filepath.Join(dir, "env.txt")
	os.Symlink("/proc/self/environ", link)
	ok := filepath.Join(dir, "ok.txt")
	os.WriteFile(ok, []byte("Once upon a time"), 0o644)
	tests := []struct{ path, want string }{
		{fifo, "not a regular file"},
		{"/dev/zero", "not a regular file"},
		{"/proc/self/environ", "special file"},
		{link, "special file"},
		{big, "the limit for a prompt file"},
		{dir, "not a regular file"},
	}
	for _, tt := range tests {
		done := make(chan error, 1)
		go func() {
			_, _, err := Parse("t.yaml", ".", []byte(withPromptFile(t, tt.path)), Options{LookupEnv: noEnv})
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%s: got %v, want %q", tt.path, err, tt.want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: the loader blocked", tt.path)
		}
	}
	s, _, err := Parse("t.yaml", ".", []byte(withPromptFile(t, ok)), Options{LookupEnv: noEnv})
	if err != nil || s.Engine.Request.Prompt != "Once upon a time" {
		t.Errorf("a regular prompt file: %v", err)
	}
}

func TestLocalWarnings(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "llama-server")
	execfile.Write(bin, []byte("#!/bin/sh\n"), 0o755)
	for _, f := range []string{"target.gguf", "draft.gguf"} {
		os.WriteFile(filepath.Join(dir, f), nil, 0o644)
	}
	env := func(m map[string]string) func(string) (string, bool) {
		return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
	}
	local := func(ws Errors) []string {
		var out []string
		for _, w := range ws {
			if strings.Contains(w.Msg, "does not resolve") || strings.Contains(w.Msg, "does not exist") {
				out = append(out, w.Key)
			}
		}
		return out
	}
	_, warns, err := Parse("t.yaml", ".", mustShipped(t), Options{LookupEnv: env(map[string]string{"LLAMA_SERVER": bin, "MODEL_DIR": dir})})
	if err != nil || len(local(warns)) != 0 {
		t.Fatalf("everything resolves, yet: %v %v", err, warns)
	}
	_, warns, err = Parse("t.yaml", ".", mustShipped(t), Options{LookupEnv: env(map[string]string{
		"LLAMA_SERVER": "no-such-llama-server-here", "MODEL_DIR": "no/such/dir"})})
	got := local(warns)
	if err != nil || strings.Join(got, " ") != "engine.command[0] engine.command[2] arms[2].args[3]" {
		t.Fatalf("got %v (%v)", got, err)
	}
	for _, w := range warns {
		if w.Key == "engine.command[0]" && (!strings.Contains(w.Msg, "make demo") || !strings.Contains(w.Msg, "LLAMA_SERVER")) {
			t.Errorf("no fix given: %v", w)
		}
	}
}

// Rule robust-1 needs three finished runs per arm (its t-test has no
// floor on p, unlike the first rule's U test, which needed four rounds at
// alpha 0.05 and five at 0.01): fewer rounds are futile, whatever alpha;
// a sequential look before three rounds is warned about (it can never
// decide), not refused.
func TestTooFewRoundsWarns(t *testing.T) {
	tests := []struct {
		rounds, alpha string
		futile, early bool
	}{
		{"2", "0.05", true, false}, {"3", "0.05", false, false}, {"3", "0.01", false, false}, {"4", "0.01", false, false},
		{"{min: 2, max: 6, until_ci_width: 2%}", "0.05", false, false}, {"{min: 1, max: 2, until_ci_width: 2%}", "0.05", true, false},
		{"{min: 2, max: 10, every: 2}", "0.05", false, true}, {"{min: 3, max: 12, every: 3}", "0.05", false, false},
	}
	for _, tt := range tests {
		src := strings.Replace(string(mustShipped(t)), shippedRounds, "rounds: "+tt.rounds, 1)
		confidence := map[string]string{"0.05": "95%", "0.01": "99%"}[tt.alpha]
		src = strings.Replace(src, "metrics:\n", "stats: {alpha: "+tt.alpha+", confidence: "+confidence+"}\nmetrics:\n", 1)
		_, warns, err := Parse("t.yaml", ".", []byte(src), Options{LookupEnv: noEnv})
		if err != nil {
			t.Fatal(err)
		}
		futile, early := false, false
		for _, w := range warns {
			futile = futile || w.Futile && strings.Contains(w.Msg, "finished runs")
			early = early || !w.Futile && strings.Contains(w.Msg, "can never decide")
		}
		if futile != tt.futile || early != tt.early {
			t.Errorf("rounds %s alpha %s: futile %v (want %v), early looks %v (want %v): %v", tt.rounds, tt.alpha, futile, tt.futile, early, tt.early, warns)
		}
	}
}

// A schedule that stops on an interval's width was warned about while
// its claims ran above alpha (rules robust-4 to robust-13); run in two
// stages (robust-14) they hold it, and no schedule is warned about.
func TestWidthScheduleWarns(t *testing.T) {
	for _, tt := range []struct {
		rounds string
		warned bool
	}{
		{"{min: 5, max: 30, until_ci_width: 2%}", false},
		{"{min: 5, max: 30, every: 5}", false},
		{"10", false},
	} {
		src := strings.Replace(string(mustShipped(t)), shippedRounds, "rounds: "+tt.rounds, 1)
		_, warns, err := Parse("t.yaml", ".", []byte(src), Options{LookupEnv: noEnv})
		if err != nil {
			t.Fatal(err)
		}
		warned := false
		for _, w := range warns {
			if strings.HasPrefix(w.Key, "schedule.rounds") {
				warned = true
				if w.Pos.Line == 0 {
					t.Errorf("rounds %s: the warning has no line: %v", tt.rounds, w)
				}
			}
		}
		if warned != tt.warned {
			t.Errorf("rounds %s: warned %v, want %v: %v", tt.rounds, warned, tt.warned, warns)
		}
	}
}

// Offline parsing does not consult the environment or this machine.
func TestOffline(t *testing.T) {
	src := strings.Replace(string(withPromptFile(t, "/no/such/prompt.txt")), `"-t", "${THREADS}"`, `"-t", "${THREADS}", "--alias", "${FROM_ENV}"`, 1)
	called := false
	s, warns, err := Parse("t.yaml", ".", []byte(src), Options{Offline: true, LookupEnv: func(string) (string, bool) { called = true; return "x", true }})
	if err != nil {
		t.Fatal(err)
	}
	if called {
		t.Error("the environment was consulted")
	}
	cmd := strings.Join(s.Engine.Command, " ")
	if !strings.Contains(cmd, "--alias ${FROM_ENV}") || !strings.Contains(cmd, "-t 2") || !strings.HasPrefix(cmd, "llama-server ") {
		t.Errorf("command: %s", cmd)
	}
	if s.Engine.Request.Prompt != "" || s.Engine.Request.PromptFile != "/no/such/prompt.txt" {
		t.Errorf("prompt: %+v", s.Engine.Request)
	}
	if strings.Contains(warns.Error(), "does not") {
		t.Errorf("machine checks ran: %v", warns)
	}
	// Online, the same source fails on the variable and the prompt file.
	if _, _, err := Parse("t.yaml", ".", []byte(src), Options{LookupEnv: noEnv}); err == nil ||
		!strings.Contains(err.Error(), "${FROM_ENV} is not defined") || !strings.Contains(err.Error(), "cannot read prompt file") {
		t.Errorf("online: %v", err)
	}
}

// A model hub id (mlx-community/…) is no missing path; a missing file
// under a folder that exists here, or with a model file's extension, is.
func TestHubModelIDIsNotAPath(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	os.Mkdir("models", 0o755)
	for _, c := range []struct {
		arg  string
		warn bool
	}{
		{"mlx-community/Qwen2.5-7B-Instruct-4bit", false},
		{"Qwen/Qwen2.5-0.5B", false},
		{"models/missing-dir", true},
		{"org/model.gguf", true},
		{"./rel/model", true},
		{"/abs/model", true},
	} {
		src := strings.Replace(quietBase, "command: [llama-server, --port, \"${PORT}\"]", "command: [llama-server, --model, \""+c.arg+"\", --port, \"${PORT}\"]", 1)
		_, warns, err := Parse("q.yaml", dir, []byte(src), Options{LookupEnv: noEnv})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(warns.Error(), "does not exist"); got != c.warn {
			t.Errorf("%s: warned %v, want %v: %v", c.arg, got, c.warn, warns)
		}
	}
}

// Several test arms need no more rounds under rule robust-1 (its t-test
// reaches any p; the first rule's U test needed Holm's alpha over the
// arms within reach of 2/C(2n, n)); a negative control is no test arm.
func TestRoundsAgainstHolmAlpha(t *testing.T) {
	arms := func(extra string) string {
		return strings.Replace(quietBase, "  - {name: b, args: [-x]}\n", "  - {name: b, args: [-x]}\n"+extra, 1)
	}
	for _, c := range []struct {
		name, src string
		futile    bool
	}{
		{"one test arm, 4 rounds", quietBase, false},
		{"two test arms, 4 rounds", arms("  - {name: c, args: [-y]}\n"), false},
		{"three test arms, 3 rounds", strings.Replace(arms("  - {name: c, args: [-y]}\n  - {name: d, args: [-w]}\n"), "rounds: 4", "rounds: 3", 1), false},
		{"a test arm and a control, 2 rounds", strings.Replace(arms("  - {name: ctl, control: true}\n"), "rounds: 4", "rounds: 2", 1), true},
	} {
		_, warns, err := Parse("q.yaml", ".", []byte(c.src), Options{LookupEnv: noEnv})
		if err != nil {
			t.Fatal(err)
		}
		got := false
		for _, w := range warns {
			if w.Futile {
				got = true
			}
		}
		if got != c.futile {
			t.Errorf("%s: futile %v, want %v: %v", c.name, got, c.futile, warns)
		}
	}
}

// shippedRounds is the demo scenario's schedule.rounds line.
const shippedRounds = "rounds: {min: 5, max: 10, max_time: 10m, every: 5}"

// The scenario file a user names is read like a prompt file: a FIFO, a
// device (or a link to one) or a file past MaxScenarioBytes fails at
// once, without blocking and without reading it whole; a link to a
// regular scenario still loads.
func TestScenarioFileMustBeRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.yaml")
	os.Symlink("/dev/zero", zero)
	big := filepath.Join(dir, "big.yaml")
	os.WriteFile(big, make([]byte, MaxScenarioBytes+1), 0o644)
	good := filepath.Join(dir, "good.yaml")
	os.WriteFile(good, mustShipped(t), 0o644)
	link := filepath.Join(dir, "link.yaml")
	os.Symlink(good, link)
	tests := []struct{ path, want string }{
		{fifo, "a FIFO, not a regular file"},
		{zero, "a character device, not a regular file"},
		{"/dev/zero", "a character device, not a regular file"},
		{big, "is larger than 1048576 bytes"},
		{dir, "a folder, not a regular file"},
	}
	for _, tt := range tests {
		done := make(chan error, 1)
		go func() {
			_, _, err := Load(tt.path, Options{LookupEnv: noEnv, Offline: true})
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%s: got %v, want %q", tt.path, err, tt.want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: loading the scenario blocked", tt.path)
		}
	}
	if _, _, err := Load(link, Options{LookupEnv: noEnv, Offline: true}); err != nil {
		t.Errorf("a link to a regular scenario: %v", err)
	}
}

// A hint says what the variable an engine binary is built from is: a
// variable that is the binary is set to its path, one followed by more of
// the path is a folder and is never given a binary's path, and a path
// written out names no variable at all (the init starter's literal
// llama-server said to set LLAMA_SERVER, which it never read).
func TestBinaryHintNamesWhatTheVariableIs(t *testing.T) {
	tests := []struct {
		key       string
		raw, bin  string
		want, not []string
	}{
		// An arm's own engine is the build compared: not the demo's,
		// which is the baseline's (both set to it is an A/A comparison).
		{"arms[1].engine.command[0]", "${HEAD_BIN}", "llama-server-head", []string{"set HEAD_BIN to its path: the build to compare, not the baseline engine's"}, []string{"HEAD_BIN=", ".cache/llama.cpp"}},
		{"", "${LLAMA_SERVER}", "llama-server", []string{"set LLAMA_SERVER to its path", "LLAMA_SERVER=$PWD/.cache/llama.cpp/bin/llama-server"}, nil},
		{"", "${REFERENCE_DIR}/build/bin/llama-server", "reference/build/bin/llama-server",
			[]string{"set REFERENCE_DIR to the folder that holds build/bin/llama-server"}, []string{"REFERENCE_DIR=", "its path", ".cache/llama.cpp"}},
		{"", "${BIN_DIR}/llama-server", "bin/llama-server", []string{"set BIN_DIR to the folder that holds llama-server", "BIN_DIR=$PWD/.cache/llama.cpp/bin)"}, []string{"bin/llama-server)"}},
		{"", "llama-server", "llama-server", []string{"write its path in engine.command[0], or put it on PATH"}, []string{"set ", "LLAMA_SERVER"}},
		{"", "/opt/${V}/srv", "/opt/x/srv", []string{"set V so that /opt/${V}/srv names the binary"}, []string{"its path"}},
		{"", "${ENGINE}", "my-server", []string{"set ENGINE to its path"}, []string{"make demo"}},
	}
	for _, tt := range tests {
		key := tt.key
		if key == "" {
			key = "engine.command[0]"
		}
		got := Origin{}.binaryHint(key, tt.raw, tt.bin)
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", tt.raw, got, w)
			}
		}
		for _, n := range tt.not {
			if strings.Contains(got, n) {
				t.Errorf("%s: %q says %q", tt.raw, got, n)
			}
		}
	}
}
