package scenarios

import (
	"os"
	"strings"
	"testing"
)

// TestPatternCostRefused: a few hundred bytes of pattern that compile to
// a huge matcher are refused where they stand, in every kind of
// scenario pattern, while the patterns scenarios use load.
func TestPatternCostRefused(t *testing.T) {
	base, err := os.ReadFile("testdata/bad/bad-strip-regex.yaml")
	if err != nil {
		t.Fatal(err)
	}
	bomb := "(?s)" + strings.Repeat(".{0,1000}", 20) + `\x00`
	long := strings.Repeat("a", MaxPatternBytes+1)
	ok := `^draft model loaded: .*\n`
	cases := []struct{ name, from, to, want string }{
		{"strip", `strip: ["[a-"]`, `strip: ["` + ok + `", '` + bomb + `']`, "s.yaml:33:40: exactness.strip[1]: invalid regular expression: the pattern compiles to"},
		{"strip long", `strip: ["[a-"]`, `strip: ["` + long + `"]`, "s.yaml:33:11: exactness.strip[0]: invalid regular expression: the pattern is 1025 bytes"},
		{"counter log", `log: "accepted=(\\d+)"`, `log: '` + bomb[:len(bomb)-4] + `(\d+)'`, "s.yaml:24:10: counters[0].log: invalid regular expression: the pattern compiles to"},
	}
	for _, c := range cases {
		src := strings.Replace(string(base), c.from, c.to, 1)
		_, _, err := parseString(t, src, Options{})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if err == nil || !strings.Contains(got, c.want) || !strings.Contains(got, "instructions") && !strings.Contains(got, "bytes") {
			t.Errorf("%s: want a refusal at %q, got %v", c.name, c.want, err)
		}
	}
	s, errs, err := parseString(t, strings.Replace(string(base), `strip: ["[a-"]`, `strip: ["`+ok+`"]`, 1), Options{})
	if err != nil || s == nil {
		t.Fatalf("a plain strip pattern: %v %v", errs, err)
	}
	for _, p := range []string{`: +eval time = .*, +([0-9.]+) tokens per second`, `[0-9]{1,400}`, strings.Repeat("x", 900)} {
		if _, err := compilePattern(p); err != nil {
			t.Errorf("%q: %v", p[:min(len(p), 40)], err)
		}
	}
	for _, p := range []string{`.{0,1000}`, `(a{0,100}){0,100}`, `(?s)(.{0,1000}){1000}`} {
		if _, err := compilePattern(p); err == nil {
			t.Errorf("%q was compiled", p)
		}
	}
}
