package recorder

import (
	"net/url"
	"testing"
)

// A relative link never reads as a scheme, an authority or a parent
// folder's path it does not name: what a record names (its data folder,
// a file) stays a path beside it.
func TestLinkPathStaysRelative(t *testing.T) {
	for _, p := range []string{"https:evil.example/timeline.png", "javascript:alert(1)/runs.jsonl", "data/a:b/x.png",
		"mailto:x@evil.example", "data/x y/(z).png", "data/%2e%2e/x"} {
		got := LinkPath(p)
		u, err := url.Parse(got)
		if err != nil || u.Scheme != "" || u.Host != "" || u.Opaque != "" {
			t.Errorf("%q links as %q: scheme %q, host %q (%v)", p, got, u.Scheme, u.Host, err)
			continue
		}
		if u.Path != p {
			t.Errorf("%q links as %q, which names %q", p, got, u.Path)
		}
	}
}
