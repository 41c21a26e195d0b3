package schema

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// PrefixCache is how a campaign keeps an engine from serving a request's
// prompt out of its prefix cache (a cached prompt would make time to first
// token and the first decode steps mean something else after the warmups
// than on a cold server). It is a scenario choice
// (engine.request.prefix_cache), typed at load, whose default follows the
// engine family (see scenarios.Policy.PrefixCache).
type PrefixCache string

// Prefix-cache states.
const (
	// PrefixCacheDisabled: every request asks the engine not to reuse a
	// cached prompt (llama-server's cache_prompt: false, which its native
	// /completion and its OpenAI-compatible endpoints all accept).
	PrefixCacheDisabled PrefixCache = "disabled"
	// PrefixCacheDistinct: the engine's prefix cache cannot be disabled
	// per request, so every request's prompt starts with a short prefix of
	// its own (DistinctPrefix): no two requests share a first token. It
	// changes the prompt.
	PrefixCacheDistinct PrefixCache = "distinct-prefix"
	// PrefixCacheUnknown: nothing is done; a request may be served from
	// the cache (a command engine, whose prompt is in its arguments, or a
	// scenario that compares outputs, which a distinct prompt would
	// change).
	PrefixCacheUnknown PrefixCache = "unknown"
)

func (p PrefixCache) Check() error { return oneOf(p, "disabled, distinct-prefix, unknown") }

// DistinctPrefix is the prefix a request's prompt starts with under
// PrefixCacheDistinct: eight hex digits of the sha256 of the run's and the
// request's numbers (seq, the start's sequence number, and request, the
// request's index within it), and a colon. Its first characters differ
// between requests, so a server that caches by token (llama-server) or by
// block (vLLM) finds nothing of the prompt in its cache but, at most, a
// leading token they happen to share. Each request's prefix is stored in
// its raw run, and the record's method shows one.
func DistinctPrefix(seq, request int) string {
	sum := sha256.Sum256([]byte(fmt.Sprintf("decodebench run %d request %d", seq, request)))
	return hex.EncodeToString(sum[:4]) + ": "
}

// ArmPrefixCache is the prefix-cache state one arm ran under, as the
// record's method stores it.
type ArmPrefixCache struct {
	Arm   string      `json:"arm"`
	State PrefixCache `json:"state"`
	// Why names what chose the state (the preset, the scenario's key, a
	// command engine, output identity).
	Why string `json:"why,omitempty"`
}
