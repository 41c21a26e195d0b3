package engine

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// TestPrefixCacheBodies: every endpoint's body, streamed and replayed,
// carries cache_prompt: false when the prefix cache is disabled per
// request, and none otherwise (a generic OpenAI server may refuse an
// unknown field, and a distinct prefix does the work there).
func TestPrefixCacheBodies(t *testing.T) {
	for _, endpoint := range []string{"/completion", "/v1/completions", "/v1/chat/completions"} {
		d, err := dialectOf(endpoint)
		if err != nil {
			t.Fatal(err)
		}
		for _, stream := range []bool{true, false} {
			for _, pc := range []schema.PrefixCache{schema.PrefixCacheDisabled, schema.PrefixCacheDistinct, schema.PrefixCacheUnknown, ""} {
				req := Request{Endpoint: endpoint, Prompt: "Once upon a time", MaxTokens: 8, PrefixCache: pc}
				b, err := requestBody(d, req, stream)
				if err != nil {
					t.Fatal(err)
				}
				var m map[string]any
				if err := json.Unmarshal(b, &m); err != nil {
					t.Fatal(err)
				}
				v, has := m["cache_prompt"]
				if want := pc == schema.PrefixCacheDisabled; has != want || (has && v != false) {
					t.Errorf("%s stream=%v %q: cache_prompt %v (present %v), want present %v and false", endpoint, stream, pc, v, has, want)
				}
				if !strings.Contains(string(b), "Once upon a time") {
					t.Errorf("%s: the prompt is not in the body %s", endpoint, b)
				}
			}
		}
	}
}

// TestDistinctPrompt: the prefix differs between requests of one start
// and between starts, and the prompt follows it unchanged.
func TestDistinctPrompt(t *testing.T) {
	seen := map[string]bool{}
	for seq := 1; seq <= 12; seq++ {
		for i := 1; i <= 12; i++ {
			p := DistinctPrompt("Once upon a time", seq, i)
			if !strings.HasSuffix(p, "Once upon a time") || !strings.HasPrefix(p, schema.DistinctPrefix(seq, i)) {
				t.Fatalf("DistinctPrompt(%d, %d) = %q", seq, i, p)
			}
			if seen[p] {
				t.Fatalf("DistinctPrompt(%d, %d) = %q repeats", seq, i, p)
			}
			seen[p] = true
		}
	}
}
