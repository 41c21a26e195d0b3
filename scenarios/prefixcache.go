package scenarios

import "github.com/decodebench/decodebench/schema"

// prefixCachePresets are the engine families whose server takes
// llama-server's cache_prompt on every endpoint, so that its prefix cache
// can be disabled per request.
var prefixCachePresets = map[string]bool{"llama.cpp": true, "llama-server-spec": true}

// PrefixCachePolicy is the prefix-cache state every arm runs under, and
// what chose it.
type PrefixCachePolicy struct {
	State schema.PrefixCache
	Why   PrefixCacheWhy
}

// PrefixCacheWhy names what chose a prefix-cache state; the recorder
// words it.
type PrefixCacheWhy string

// What chooses a prefix-cache state.
const (
	PrefixCacheByScenario PrefixCacheWhy = "scenario"        // engine.request.prefix_cache
	PrefixCacheByCommand  PrefixCacheWhy = "command-engine"  // the prompt is in the command's arguments
	PrefixCacheByPreset   PrefixCacheWhy = "preset"          // a llama-server family preset
	PrefixCacheByEndpoint PrefixCacheWhy = "native-endpoint" // /completion is llama-server's own
	PrefixCacheByOpenAI   PrefixCacheWhy = "openai-server"   // a server whose cache cannot be told
	PrefixCacheByIdentity PrefixCacheWhy = "output-identity" // a distinct prefix would change the compared outputs
)

// prefixCache types the scenario's choice, or the engine family's
// default: a command engine is unknown (its prompt is in its arguments);
// the llama-server family (its presets, or its native /completion
// endpoint) disables the cache per request; any other server gets a
// distinct prefix per request, except where outputs are compared, which
// a prompt of its own per request would make differ (then unknown).
func (s *Scenario) prefixCache() PrefixCachePolicy {
	e := s.Engine
	switch {
	case e.Request.PrefixCache != "":
		return PrefixCachePolicy{e.Request.PrefixCache, PrefixCacheByScenario}
	case e.IsCommand():
		return PrefixCachePolicy{schema.PrefixCacheUnknown, PrefixCacheByCommand}
	case prefixCachePresets[e.Preset]:
		return PrefixCachePolicy{schema.PrefixCacheDisabled, PrefixCacheByPreset}
	case e.Request.Endpoint == "/completion":
		return PrefixCachePolicy{schema.PrefixCacheDisabled, PrefixCacheByEndpoint}
	case s.Exactness != nil:
		return PrefixCachePolicy{schema.PrefixCacheUnknown, PrefixCacheByIdentity}
	}
	return PrefixCachePolicy{schema.PrefixCacheDistinct, PrefixCacheByOpenAI}
}

// validatePrefixCache refuses a state the scenario cannot keep.
func (s *Scenario) validatePrefixCache(p *problems) {
	switch pc := s.Engine.Request.PrefixCache; {
	case pc == "":
	case s.Engine.IsCommand() && pc != schema.PrefixCacheUnknown:
		p.at("engine.request.prefix_cache", "a command engine's prompt is in its arguments: its prefix cache can only be %q", schema.PrefixCacheUnknown)
	case pc == schema.PrefixCacheDistinct && s.Exactness != nil:
		p.at("engine.request.prefix_cache", "%q gives every request a prompt of its own, so outputs would differ between runs: it cannot go with exactness", pc)
	}
}
