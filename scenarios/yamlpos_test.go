package scenarios

import (
	"fmt"
	"strings"
	"testing"
)

// TestLocateYAMLError places syntax errors where they are, not at the
// line of yaml.v3's context mark, and prints no column it does not know.
func TestLocateYAMLError(t *testing.T) {
	tests := []struct{ src, want string }{
		// A key below a list at the list's indentation.
		{"feature: x\narms:\n  - name: a\n  name: b\n", "y.yaml:4:3: invalid YAML: did not find expected '-' indicator"},
		{"feature: x\r\narms:\r\n  - name: a\r\n  name: b\r\n", "y.yaml:4:3: invalid YAML: did not find expected '-' indicator"},
		// A tab in the indentation.
		{"feature: x\nschedule:\n  cooldown: 2s\n\tfoo: 1\n", "y.yaml:4:1: invalid YAML: found a tab character that violates indentation"},
		// A comma missing in a flow mapping, and in a flow sequence over lines.
		{"a: 1\nb: {c: \"x\" d: \"y\"}\n", "y.yaml:2:12: invalid YAML: did not find expected ',' or '}'"},
		{"a: [x,\n  \"y\" \"z\"]\n", "y.yaml:2:7: invalid YAML: did not find expected ',' or ']'"},
		// A quoted string over two lines is valid: the error is further on.
		{"title: \"long\n  text\"\narms:\n  - name: a\n - name: b\n", "y.yaml:5:2: invalid YAML: did not find expected key"},
		// An unclosed quote, and an unclosed flow collection.
		{"title: 'it''s\narms: []\n", "y.yaml:1:8: invalid YAML: the quoted string that opens here runs to the end of the file (a closing ' missing?)"},
		{"a: 1\nb: \"x\\\"\n", "y.yaml:2:4: invalid YAML: the quoted string that opens here runs to the end of the file"},
		{"title: \"a\n  b\n  c\n", "y.yaml:1:8: invalid YAML: the quoted string that opens here runs to the end of the file"},
		{"title: \"x # part of the file name\nvars: {a: b}\narms:\n  - name: \"c\"\n", "y.yaml:1:8: invalid YAML: the quoted string that opens here does not close on its line (a closing \" missing?); reading on, the parser fails at line 4"},
		{"a: 1\nb: [c, d\ne: f\n", "y.yaml:2:4: invalid YAML: the [ that opens here does not close on its line (a closing ] missing?)"},
		// After blank lines and comments, in a second document.
		{"a: 1\n\n# c\n\n  b: 2\n", "y.yaml:5:3: invalid YAML: did not find expected key"},
		{"a: 1\n---\nb: c: d\n", "y.yaml:3:5: invalid YAML: mapping values are not allowed in this context"},
	}
	for _, tt := range tests {
		_, err := parseYAML("y.yaml", []byte(tt.src))
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%q: got %v, want %s…", tt.src, err, tt.want)
		}
	}
}

// TestLocateYAMLErrorBounded gives up placing an error in a large file
// once re-parsing it costs more than maxLocateBytes, and then says so
// without a position.
func TestLocateYAMLErrorBounded(t *testing.T) {
	// Every prefix of a flow mapping left open fails as the file does
	// (long values: the budget counts bytes, the parser's time nodes).
	var b strings.Builder
	b.WriteString("x:\n  {a: 1\n")
	for i := 0; b.Len() < 900_000; i++ {
		fmt.Fprintf(&b, "  , b%d: %s\n", i, strings.Repeat("v", 900))
	}
	_, err := parseYAML("y.yaml", []byte(b.String()))
	if err == nil || !strings.HasPrefix(err.Error(), "y.yaml: invalid YAML: did not find expected ',' or '}' (by line ") {
		t.Fatalf("got %v", err)
	}
}
