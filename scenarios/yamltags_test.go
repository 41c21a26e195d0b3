package scenarios

import (
	"strings"
	"testing"
)

// Keys and tags the check and yaml.v3 would read differently are refused
// at their line and column; the core tags a field reads, and a plain value
// that resolves to a timestamp, still load.
func TestTagsAndAliasKeys(t *testing.T) {
	base := string(mustShipped(t))
	tests := []struct{ old, new, want string }{
		{"order: rotate", "order: !!binary cm90YXRl", "the value is tagged !!binary"},
		{"order: rotate", "order: !custom rotate", "the value is tagged !custom"},
		{"order: rotate", "order: !!int 3", "the value is tagged !!int, which this field does not read"},
		{"order: rotate", "? [a]\n  : 1\n  order: rotate", "a key must be a name, not a list"},
		{"order: rotate", "!!str order: rotate", `key "order" is tagged !!str`},
		{"order: rotate", "~: 1\n  order: rotate", `key "~" reads as !!null`},
	}
	for _, tt := range tests {
		src := strings.Replace(base, tt.old, tt.new, 1)
		if src == base {
			t.Fatalf("%q not in the shipped scenario", tt.old)
		}
		_, _, err := Parse("t.yaml", ".", []byte(src), Options{LookupEnv: noEnv})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want %s", tt.new, err, tt.want)
		}
	}
	for _, ok := range [][2]string{{"order: rotate", "order: !!str rotate"}, {"seed: 1", "seed: !!int 1"}, {"cooldown: 2s", "cooldown: !!str 2s"}} {
		src := strings.Replace(base, ok[0], ok[1], 1)
		if _, _, err := Parse("t.yaml", ".", []byte(src), Options{LookupEnv: noEnv}); err != nil {
			t.Errorf("%s refused: %v", ok[1], err)
		}
	}
}
