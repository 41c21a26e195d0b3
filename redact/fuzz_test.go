package redact

import (
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// A redacted scenario is YAML whenever its source is: a mapping with the
// same keys (a stored scenario that no longer loads fails check), no known
// secret in it, and redacting it again masks nothing more.
func FuzzYAML(f *testing.F) {
	for _, s := range []string{
		"env:\n  AUTHORIZATION: \"zz-secret-1\"\n",
		"args: [-H, \"Authorization: Bearer zz-secret-1\", --api-key, x] # zz-secret-1\n",
		"vars: {TOKEN: 1, B: \"ghp_" + strings.Repeat("a", 36) + "\"}\n",
		"k: !!int 5\nAPI_KEY: !!float 1.5\n",
		"\"X-Api-Key: zz-secret-1\": [a, b]\n",
		"a: &x zz-secret-1\nb: *x\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		var in map[string]any
		if yaml.Unmarshal([]byte(src), &in) != nil || in == nil {
			return
		}
		r := New(Source{Secrets: []string{"zz-secret-1"}})
		out := r.YAML([]byte(src))
		var got map[string]any
		if err := yaml.Unmarshal(out, &got); err != nil {
			t.Fatalf("%q redacts to YAML that does not load (%v):\n%s", src, err, out)
		}
		if len(got) != len(in) && !strings.Contains(src, "zz-secret-1") {
			t.Fatalf("%q: %d keys, was %d:\n%s", src, len(got), len(in), out)
		}
		if strings.Contains(string(out), "zz-secret-1") {
			t.Fatalf("%q keeps the secret:\n%s", src, out)
		}
		var again map[string]any
		if err := yaml.Unmarshal(r.YAML(out), &again); err != nil || !reflect.DeepEqual(again, got) {
			t.Fatalf("%q: redacting twice masks more:\n%s\n---\n%s", src, out, r.YAML(out))
		}
	})
}
