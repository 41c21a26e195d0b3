package engine

import "strings"

// TimingsKey is the field of a server's final reply that holds the
// engine's own timings (llama-server's timings object): the run keeps its
// numbers (Response.Timings, a run's engine_timings), and nothing else of
// the reply.
const TimingsKey = "timings"

// StoredReply is the part of a final reply that a run stores, as a reply
// the harness's readers read (JSONPath, Counter.Read): its timings, the
// numbers that could be true (plausibleTimings). check reads a json:
// metric or counter whose field lies in it (InStoredReply) from it again.
func StoredReply(timings map[string]float64) map[string]any {
	if timings == nil {
		return map[string]any{}
	}
	t := make(map[string]any, len(timings))
	for k, v := range timings {
		t[k] = v
	}
	return map[string]any{TimingsKey: t}
}

// InStoredReply reports whether a json: path names a field of the stored
// reply (a field of the timings object). Such a field absent from the
// stored timings was absent from the reply or could not be true: read
// either way as absent.
func InStoredReply(path string) bool {
	first, rest, ok := strings.Cut(path, ".")
	return ok && first == TimingsKey && rest != "" && !strings.Contains(rest, ".")
}

// TimingsTokens is the engine's own count of generated tokens in its
// timings (predicted_n), the count the harness takes first (tokenCount);
// false when the timings give none.
func TimingsTokens(t map[string]float64) (int, bool) {
	if v, ok := t["predicted_n"]; ok && v > 0 {
		return int(v), true
	}
	return 0, false
}
