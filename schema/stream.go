package schema

// Stream is one of a run's concurrent streams (arms[].concurrency): N
// identical requests released together on one engine, each timed on its
// own. Times are milliseconds since the release. A run of a scenario in
// which some arm sets concurrency stores every stream, the first included;
// the run's own output, token count, built-in metrics and counters are the
// first stream's.
type Stream struct {
	// SentMs is when the stream's request was sent; FirstTokenMs and
	// LastTokenMs when its first and last events that carried tokens
	// arrived; EndMs when its reply ended.
	SentMs       float64 `json:"sent_ms"`
	FirstTokenMs float64 `json:"first_token_ms"`
	LastTokenMs  float64 `json:"last_token_ms"`
	EndMs        float64 `json:"end_ms"`
	// Tokens is the stream's generated token count (the engine's own
	// total); FirstEventTokens how many of them its first token event
	// carried (not decoded in the stream's decode window).
	Tokens           int `json:"tokens"`
	FirstEventTokens int `json:"first_event_tokens"`
	// EngineTokS is the engine's own decode rate for the stream, where it
	// reports one (llama-server's timings.predicted_per_second).
	EngineTokS   float64 `json:"engine_tok_s,omitempty"`
	OutputSHA256 string  `json:"output_sha256"`
	// Output is the stream's text when it differs from the run's (the
	// first stream's); left out when OutputSHA256 is the run's.
	Output string `json:"output,omitempty"`
	// Counters are the json counters as read from this stream's reply.
	Counters map[string]CounterReading `json:"counters,omitempty"`
}

// StreamText is the text stream s of run r generated.
func StreamText(r Run, s Stream) string {
	if s.Output == "" && s.OutputSHA256 == r.OutputSHA256 {
		return r.Output
	}
	return s.Output
}
