package scenarios

import (
	"fmt"
	"strings"
	"testing"
)

// patternScenario sets every key that holds a regular expression, each on
// its own line, to the pattern given for it (its default otherwise).
func patternScenario(set map[string]string) string {
	pat := func(key, def string) string {
		if v, ok := set[key]; ok {
			return v
		}
		return def
	}
	return fmt.Sprintf(`feature: patterns
vars: {ARM2: "2"}
engine:
  kind: command
  command: [./eng.sh]
  decline: '%s'
  output:
    metrics:
      decode_tok_s: '%s'
    tokens: '%s'
    text:
      after: '%s'
      before: '%s'
arms:
  - {name: a, args: ["1"]}
  - {name: b, args: ["${ARM2}"]}
baseline: a
counters:
  - name: armno
    log: '%s'
    expect: {a: "== 1", b: "== 2"}
  - name: build
    version: output
    capture: '%s'
    expect: {a: "> 0", b: "> 0"}
metrics:
  extra:
    - name: accepted
      log: '%s'
exactness:
  against: a
  compare: [b]
  strip: ['%s']
unmeasured: [nothing]
`, pat("engine.decline", "declined"), pat("engine.output.metrics.decode_tok_s", ": +eval time = .*, +([0-9.]+) tokens per second"),
		pat("engine.output.tokens", "/ +([0-9]+) runs"), pat("engine.output.text.after", "^text:"), pat("engine.output.text.before", "^end"),
		pat("counters[0].log", "arm=([0-9]+)"), pat("counters[1].capture", "build ([0-9]+)"),
		pat("metrics.extra[0].log", "accepted=([0-9]+)"), pat("exactness.strip[0]", "^banner"))
}

// No key that holds a regular expression replaces ${NAME}: its $ would
// be an end anchor, and the pattern would never match (a decline of
// 'arm=${ARM2}' never declined anything). Each such key refuses ${NAME},
// defined or not, at its own line, where a new scenario loads; a stored
// one is read as it ran, and an escaped \${NAME} or \$\{NAME\} matches
// the text ${NAME} and loads.
func TestPatternRefusesVariables(t *testing.T) {
	if _, _, err := Parse("p.yaml", ".", []byte(patternScenario(nil)), Options{LookupEnv: noEnv}); err != nil {
		t.Fatalf("the scenario of plain patterns: %v", err)
	}
	keys := []struct {
		key  string
		line int
		with string // the pattern, %s where the variable goes
	}{
		{"engine.decline", 6, "arm=%s"},
		{"engine.output.metrics.decode_tok_s", 9, ": +eval time = %s, +([0-9.]+) tokens per second"},
		{"engine.output.tokens", 10, "%s ([0-9]+) runs"},
		{"engine.output.text.after", 12, "^%s:"},
		{"engine.output.text.before", 13, "^%s"},
		{"counters[0].log", 20, "arm=%s([0-9]+)"},
		{"counters[1].capture", 24, "%s ([0-9]+)"},
		{"metrics.extra[0].log", 29, "%s=([0-9]+)"},
		{"exactness.strip[0]", 33, "^%s"},
	}
	for _, k := range keys {
		for _, c := range []struct {
			ref     string
			offline bool
			refused bool
		}{
			{"${ARM2}", false, true},
			{"${UNDEFINED_VAR}", false, true},
			{`x\\${ARM2}`, false, true}, // an escaped backslash, then the variable
			{"${ARM2}", true, false},
			{`\${ARM2}`, false, false},
			{`\$\{ARM2\}`, false, false},
		} {
			src := patternScenario(map[string]string{k.key: fmt.Sprintf(k.with, c.ref)})
			_, _, err := Parse("p.yaml", ".", []byte(src), Options{LookupEnv: noEnv, Offline: c.offline})
			name := strings.Trim(strings.TrimPrefix(c.ref, `x\\`), `\${}`)
			at := fmt.Sprintf("p.yaml:%d:", k.line)
			want := fmt.Sprintf("%s: ${%s}: variables are not replaced in a regular expression", k.key, name)
			switch {
			case c.refused && (err == nil || !strings.Contains(err.Error(), at) || !strings.Contains(err.Error(), want)):
				t.Errorf("%s: %s: want a refusal at %s saying %q, got %v", k.key, c.ref, at, want, err)
			case !c.refused && err != nil:
				t.Errorf("%s: %s (offline %v): refused: %v", k.key, c.ref, c.offline, err)
			}
		}
	}
}
