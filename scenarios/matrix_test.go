package scenarios

import (
	"fmt"
	"strings"
	"testing"
)

// sweepScenario is a valid scenario whose arms are written by the caller.
func sweepScenario(arms, expect string) string {
	return `feature: sweep
engine:
  preset: llama.cpp
  command: [llama-server, --port, "${PORT}"]
  request: {prompt: hi, max_tokens: 8}
arms:
` + arms + `baseline: classic
schedule: {rounds: 6, cooldown: 0s}
counters:
  - name: drafts
    json: timings.draft_n
    expect: ` + expect + `
unmeasured: [everything else]
`
}

const sweepArms = `  - name: classic
    args: [--spec-type, none]
  - matrix:
      block: [2, 3, 4]
      threads: [1, 2]
    name: "mtp-b${block}-t${threads}"
    args: [--draft-block-size, "${block}", -t, "${threads}"]
    env: {BLOCK: "${block}"}
`

func parseString(t *testing.T, src string, opt Options) (*Scenario, Errors, error) {
	t.Helper()
	if opt.LookupEnv == nil {
		opt.LookupEnv = noEnv
	}
	return Parse("s.yaml", t.TempDir(), []byte(src), opt)
}

func TestMatrixExpandsArms(t *testing.T) {
	s, _, err := parseString(t, sweepScenario(sweepArms, `{classic: "== 0", "mtp-*": "> 0"}`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := "classic mtp-b2-t1 mtp-b2-t2 mtp-b3-t1 mtp-b3-t2 mtp-b4-t1 mtp-b4-t2"
	if got := strings.Join(s.ArmNames(), " "); got != want {
		t.Fatalf("arms %q, want %q", got, want)
	}
	a, _ := s.Arm("mtp-b3-t2")
	if got := strings.Join(a.Args, " "); got != "--draft-block-size 3 -t 2" || a.Env["BLOCK"] != "3" {
		t.Errorf("mtp-b3-t2: args %q env %v", got, a.Env)
	}
	for _, name := range s.ArmNames()[1:] {
		if d := s.Distinguishing(name); len(d) != 1 {
			t.Errorf("%s: the glob expectation did not reach it: %v", name, d)
		}
		if _, ok := s.Policy.Counters[0].Expect[name]; !ok {
			t.Errorf("%s: no expectation in the policy", name)
		}
	}
	// The same arms written out by hand mean the same campaign.
	var hand strings.Builder
	hand.WriteString("  - name: classic\n    args: [--spec-type, none]\n")
	for _, b := range []int{2, 3, 4} {
		for _, th := range []int{1, 2} {
			fmt.Fprintf(&hand, "  - name: mtp-b%d-t%d\n    args: [--draft-block-size, \"%d\", -t, \"%d\"]\n    env: {BLOCK: \"%d\"}\n", b, th, b, th, b)
		}
	}
	exp := `{classic: "== 0", mtp-b2-t1: "> 0", mtp-b2-t2: "> 0", mtp-b3-t1: "> 0", mtp-b3-t2: "> 0", mtp-b4-t1: "> 0", mtp-b4-t2: "> 0"}`
	h, _, err := parseString(t, sweepScenario(hand.String(), exp), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if h.Hash() != s.Hash() {
		t.Error("a sweep and the same arms written out hash differently")
	}
	fewer, _, err := parseString(t, sweepScenario(strings.Replace(sweepArms, "[2, 3, 4]", "[2, 3]", 1), `{classic: "== 0", "mtp-*": "> 0"}`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if fewer.Hash() == s.Hash() {
		t.Error("a smaller sweep hashes like the larger one")
	}
}

func TestMatrixErrors(t *testing.T) {
	const tmplLine = 9 // the line of "- matrix:" in sweepArms, in sweepScenario
	tests := []struct {
		name, arms, expect string
		want               []string // substrings, each in some error
	}{
		{"name misses a parameter", strings.Replace(sweepArms, "-t${threads}", "", 1), `{classic: "== 0", "mtp-*": "> 0"}`,
			[]string{`s.yaml:12:11: arms[1].name: the name of a matrix template must use ${threads}`}},
		{"bad generated name at the template", strings.Replace(sweepArms, `"mtp-b`, `"mtp b`, 1), `{classic: "== 0", "mtp*": "> 0"}`,
			[]string{`s.yaml:12:11: arms[1].name: "mtp b2-t1": arm names are`, `s.yaml:12:11: arms[6].name: "mtp b4-t2"`}},
		{"bad generated arg reported at the template", strings.Replace(sweepArms, `"${block}"`, `"${block}${NOPE}"`, 1), `{classic: "== 0", "mtp-*": "> 0"}`,
			[]string{`s.yaml:13:32: arms[1].args[1]: ${NOPE} is not defined`}},
		{"collision with a plain arm", sweepArms + "  - name: mtp-b2-t1\n", `{classic: "== 0", "mtp-*": "> 0"}`,
			[]string{`arms[7].name: duplicate arm name "mtp-b2-t1"`}},
		{"too many arms", strings.Replace(strings.Replace(sweepArms, "[2, 3, 4]", "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]", 1), "[1, 2]", "[1, 2, 3, 4, 5, 6, 7]", 1), `{classic: "== 0", "mtp-*": "> 0"}`,
			[]string{fmt.Sprintf(`s.yaml:%d:5: arms[1].matrix: the sweep gives more than 64 arms`, tmplLine)}},
		{"empty list", strings.Replace(sweepArms, "[1, 2]", "[]", 1), `{classic: "== 0", "mtp-*": "> 0"}`,
			[]string{`arms[1].matrix.threads: expected a non-empty list of values`}},
		{"not a mapping", strings.Replace(sweepArms, "matrix:", "matrix: [1]\n    x:", 1), `{classic: "== 0", "mtp-*": "> 0"}`,
			[]string{`arms[1].matrix: expected a mapping of parameter names`}},
		{"a list as a value", strings.Replace(sweepArms, "[1, 2]", "[1, [2]]", 1), `{classic: "== 0", "mtp-*": "> 0"}`,
			[]string{`arms[1].matrix.threads[1]: expected a value`}},
		{"glob matching nothing", sweepArms, `{classic: "== 0", "mtp-*": "> 0", "eagle-*": "> 0"}`,
			[]string{`counters[0].expect.eagle-*: "eagle-*" matches no arm`}},
		{"two globs on one arm", sweepArms, `{classic: "== 0", "mtp-*": "> 0", "mtp-b2-*": ">= 1"}`,
			[]string{`is matched by`}},
		{"bad glob", sweepArms, `{classic: "== 0", "mtp-[": "> 0"}`,
			[]string{`counters[0].expect.mtp-[: invalid pattern`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := parseString(t, sweepScenario(tt.arms, tt.expect), Options{})
			if err == nil {
				t.Fatal("accepted")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("no %q in:\n%v", w, err)
				}
			}
		})
	}
}

// An arm's own expectation wins over a glob's.
func TestGlobOwnExpectationWins(t *testing.T) {
	s, _, err := parseString(t, sweepScenario(sweepArms, `{classic: "== 0", "mtp-*": "> 0", mtp-b2-t1: ">= 5"}`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Counters[0].Expect["mtp-b2-t1"]; got != ">= 5" {
		t.Errorf("mtp-b2-t1 expects %q", got)
	}
	if got := s.Counters[0].Expect["mtp-b4-t2"]; got != "> 0" {
		t.Errorf("mtp-b4-t2 expects %q", got)
	}
}
