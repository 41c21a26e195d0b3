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
