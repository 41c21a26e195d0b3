package recorder

import (
	"strings"

	"github.com/decodebench/decodebench/schema"
)

// prefixCacheMethod is the method section's line on each arm's
// prefix-cache state, for records that store it.
func prefixCacheMethod(r *schema.Record) string {
	var parts []string
	for _, a := range r.Method.PrefixCache {
		parts = append(parts, code(a.Arm)+": "+prefixCacheState(a))
	}
	return "Prefix cache, by arm: " + strings.Join(parts, "; ") + "."
}

func prefixCacheState(a schema.ArmPrefixCache) string {
	var s string
	switch a.State {
	case schema.PrefixCacheDisabled:
		s = "disabled per request (`cache_prompt: false` in every request, warmups included)"
	case schema.PrefixCacheDistinct:
		s = "a distinct prefix per request (" + code(strings.TrimSpace(schema.DistinctPrefix(3, 2))) + " before the prompt, eight hex digits of a hash of the run's and the request's numbers: it changes the prompt, and each request's prefix is in its raw run)"
	case schema.PrefixCacheUnknown:
		s = "unknown (nothing keeps a request from being served from the cache)"
	default:
		s = text(string(a.State))
	}
	if why := prefixCacheWhy(a.Why); why != "" {
		s += ", " + why
	}
	return s
}

func prefixCacheWhy(why string) string {
	switch why {
	case "scenario":
		return "as the scenario asks (engine.request.prefix\\_cache)"
	case "command-engine":
		return "as a command engine's prompt is in its arguments"
	case "preset":
		return "as the llama-server family takes `cache_prompt` on every endpoint"
	case "native-endpoint":
		return "as `/completion` is llama-server's native endpoint"
	case "openai-server":
		return "as an OpenAI-compatible server's prefix cache cannot be disabled per request"
	case "output-identity":
		return "as a distinct prefix would change the outputs the campaign compares"
	}
	return text(why)
}
