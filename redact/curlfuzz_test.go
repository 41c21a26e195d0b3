package redact

import "testing"

func FuzzCurlText(f *testing.F) {
	for _, s := range []string{`curl -u "a:b c" h`, "sh -c 'curl -u a:b'", `curl -u a:"b`, `curl -u`, `"curl`, `curl -u a:\`, "curl -u 'a:b", `curl --user=`, `curl -uX`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m := maskCurlText(s, nil)
		if m2 := maskCurlText(m, nil); m2 != m {
			t.Errorf("not idempotent: %q -> %q -> %q", s, m, m2)
		}
	})
}
