package scenarios

import (
	"regexp"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// withEngine is the shipped speculative scenario with its preset, its
// request endpoint and extra lines under engine.request and the top level.
func withEngine(t *testing.T, preset, endpoint, request, top string) string {
	t.Helper()
	src := string(mustShipped(t))
	src = regexp.MustCompile(`(?m)^  preset: .*\n`).ReplaceAllString(src, preset)
	src = regexp.MustCompile(`(?m)^    endpoint: .*\n`).ReplaceAllString(src, "")
	src = regexp.MustCompile(`(?m)^exactness:\n(  .*\n)*`).ReplaceAllString(src, "")
	src = strings.Replace(src, "  request:\n", "  request:\n    endpoint: "+endpoint+"\n"+request, 1)
	return src + top
}

// TestPrefixCacheDefaults: the llama-server family (its presets, or its
// native /completion) disables the cache per request; another server gets
// a distinct prefix, unless outputs are compared (unknown); the scenario's
// key wins.
func TestPrefixCacheDefaults(t *testing.T) {
	exact := "exactness: {compare: [draft], against: classic}\n"
	for _, tc := range []struct {
		name, preset, endpoint, request, top string
		want                                 schema.PrefixCache
		why                                  PrefixCacheWhy
	}{
		{"llama.cpp openai", "  preset: llama.cpp\n", "/v1/completions", "", "", schema.PrefixCacheDisabled, PrefixCacheByPreset},
		{"llama.cpp chat", "  preset: llama.cpp\n", "/v1/chat/completions", "", "", schema.PrefixCacheDisabled, PrefixCacheByPreset},
		{"no preset native", "", "/completion", "", "", schema.PrefixCacheDisabled, PrefixCacheByEndpoint},
		{"vllm", "  preset: vllm\n", "/v1/completions", "", "", schema.PrefixCacheDistinct, PrefixCacheByOpenAI},
		{"no preset openai", "", "/v1/chat/completions", "", "", schema.PrefixCacheDistinct, PrefixCacheByOpenAI},
		{"openai with identity", "  preset: openai\n", "/v1/completions", "", exact, schema.PrefixCacheUnknown, PrefixCacheByIdentity},
		{"scenario key", "  preset: openai\n", "/v1/completions", "    prefix_cache: disabled\n", "", schema.PrefixCacheDisabled, PrefixCacheByScenario},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _, err := Parse("t.yaml", ".", []byte(withEngine(t, tc.preset, tc.endpoint, tc.request, tc.top)), Options{LookupEnv: noEnv})
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Policy.PrefixCache; got.State != tc.want || got.Why != tc.why {
				t.Errorf("prefix cache %+v, want %s by %s", got, tc.want, tc.why)
			}
		})
	}
}

// TestPrefixCacheAndRequestsErrors: a value out of the enum, a distinct
// prefix with output identity, and requests out of range are refused
// with their key; requests is typed at load (absent: 1).
func TestPrefixCacheAndRequestsErrors(t *testing.T) {
	exact := "exactness: {compare: [draft], against: classic}\n"
	for _, tc := range []struct{ request, top, want string }{
		{"    prefix_cache: off\n", "", "engine.request.prefix_cache"},
		{"    prefix_cache: distinct-prefix\n", exact, "cannot go with exactness"},
	} {
		_, _, err := Parse("t.yaml", ".", []byte(withEngine(t, "  preset: llama.cpp\n", "/v1/completions", tc.request, tc.top)), Options{LookupEnv: noEnv})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.request, err, tc.want)
		}
	}
	for _, n := range []string{"-1", "33"} {
		src := strings.Replace(oneRequest(t), "schedule:\n", "schedule:\n  requests: "+n+"\n", 1)
		_, _, err := Parse("t.yaml", ".", []byte(src), Options{LookupEnv: noEnv})
		if err == nil || !strings.Contains(err.Error(), "schedule.requests") {
			t.Errorf("requests %s: got %v", n, err)
		}
	}
	conc, err := ShippedSource("llamacpp-concurrency")
	if err != nil {
		t.Fatal(err)
	}
	src0 := strings.Replace(string(conc), "schedule:\n", "schedule:\n  requests: 2\n", 1)
	if _, _, err := Parse("t.yaml", ".", []byte(src0), Options{LookupEnv: noEnv}); err == nil || !strings.Contains(err.Error(), "requests must be 1 with arms[].concurrency") {
		t.Errorf("requests with concurrent streams: got %v", err)
	}
	s, _, err := Parse("t.yaml", ".", []byte(oneRequest(t)), Options{LookupEnv: noEnv})
	if err != nil || s.Policy.Schedule.Requests != 1 {
		t.Fatalf("default requests: %v %+v", err, s.Policy.Schedule)
	}
	src := strings.Replace(oneRequest(t), "schedule:\n", "schedule:\n  requests: 3\n", 1)
	s3, _, err := Parse("t.yaml", ".", []byte(src), Options{LookupEnv: noEnv})
	if err != nil || s3.Policy.Schedule.Requests != 3 {
		t.Fatalf("requests 3: %v", err)
	}
	if s3.Hash() == s.Hash() {
		t.Error("requests does not change the scenario's hash")
	}
	// At the same rounds: within the demo's budget the dearer rounds would
	// reach fewer looks.
	s.Schedule.Rounds.MaxTime, s3.Schedule.Rounds.MaxTime = Duration{}, Duration{}
	if s3.Estimate() <= s.Estimate() {
		t.Errorf("estimate %v with 3 requests, %v with 1", s3.Estimate(), s.Estimate())
	}
}

// oneRequest is the shipped demo without its schedule.requests line (it
// sets requests: 3), so the default applies: a test of the default reads
// it, and fails if the default is no longer one.
func oneRequest(t *testing.T) string {
	t.Helper()
	src := string(mustShipped(t))
	out := strings.Replace(src, "  requests: 3\n", "", 1)
	if out == src || strings.Contains(out, "\n  requests:") {
		t.Fatal("the shipped demo no longer sets requests: 3 (exactly once)")
	}
	return out
}
