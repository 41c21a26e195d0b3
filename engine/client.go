package engine

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"time"

	"github.com/decodebench/decodebench/schema"
)

// Request is the measured request, in engine-neutral terms.
type Request struct {
	Endpoint    string // /completion, /v1/completions or /v1/chat/completions
	Prompt      string
	Model       string
	MaxTokens   int
	Temperature float64
	Seed        int
	IgnoreEOS   bool
	Stop        []string
	Timeout     time.Duration
	// Reads says how the measured stream is read: its ends only (the
	// default) or every event, for per-token arrival times.
	Reads Reads
	// PrefixCache says whether the request asks the engine not to reuse
	// a cached prompt (schema.PrefixCacheDisabled); a distinct prefix is
	// put into Prompt by the caller (DistinctPrompt).
	PrefixCache schema.PrefixCache
}

// Response is what one streamed request measured and returned.
type Response struct {
	Start time.Time
	// TTFT is the time from sending the request to the first event that
	// carries generated tokens.
	TTFT time.Duration
	// Wall is the time from sending the request to the end of the stream.
	Wall time.Duration
	// FirstTokenAt and LastTokenAt are the arrival times, since Start, of
	// the first and last events that carried tokens.
	FirstTokenAt, LastTokenAt time.Duration
	// FirstEventTokens is how many tokens the first token event carried;
	// llama-server merges tokens that end inside a multi-byte character.
	FirstEventTokens int
	// Tokens is the number of generated tokens, from the engine's own totals
	// where it gives them (TokenSource says which).
	Tokens      int
	TokenSource string
	// StreamedTokens counts token ids as streamed, when the engine returns
	// them (llama-server's return_tokens); TokenIDs are those ids.
	StreamedTokens int
	TokenIDs       []int32
	Events         int
	Text           string
	// textSHA256 is Text's sha256 (OutputSHA256).
	textSHA256 [sha256.Size]byte
	// Reasoning is text an engine put in a separate reasoning channel.
	Reasoning string
	// Timings is the engine's own timing block (llama-server's `timings`).
	Timings map[string]float64
	// Final is the last JSON event of the stream merged over the earlier
	// ones' top-level fields: the engine's reply, for json counters.
	Final map[string]any
	// Done reports whether the stream ended properly (a stop event or
	// [DONE]) rather than being cut off.
	Done bool
	// EventsAt and EventTokens are, per event that carried tokens, its
	// arrival time since Start and its token count: the inter-token
	// latencies, computed after the stream. Only ReadEveryEvent takes them.
	EventsAt    []time.Duration
	EventTokens []int32
	// Reads is how the stream was read; ReadsNote says why it differs
	// from what the request asked.
	Reads     Reads
	ReadsNote string
	// SelfCPU is decodebench's own CPU time (every thread, from rusage)
	// from sending the request to the end of the stream: what reading the
	// reply cost the machine the engine ran on.
	SelfCPU time.Duration
	// Impossible are the engine's numbers that could not be true (not
	// finite, negative, more tokens than max_tokens allows): left out of
	// Timings and the token count.
	Impossible []schema.ImpossibleValue
	wakeups    int
}

// Complete sends req to the server at baseURL with streaming on and
// measures the reply as it arrives.
func Complete(ctx context.Context, baseURL string, req Request) (*Response, error) {
	d, err := dialectOf(req.Endpoint)
	if err != nil {
		return nil, err
	}
	body, err := requestBody(d, req, true)
	if err != nil {
		return nil, err
	}
	r, err := streamed(ctx, baseURL, req, d, body)
	if err != nil {
		return r, err
	}
	return r, r.finish(req)
}

// finish takes the engine's totals from a read reply and checks that it
// ended properly with something generated.
func (r *Response) finish(req Request) error {
	if !r.Done {
		return fmt.Errorf("stream ended without a final event after %d events (truncated reply)", r.Events)
	}
	r.Timings = r.plausibleTimings(numbers(r.Final[TimingsKey]), req.MaxTokens)
	r.Tokens, r.TokenSource = tokenCount(r, req.MaxTokens)
	if r.Tokens == 0 && r.Text == "" && r.Reasoning == "" {
		return errors.New("engine returned no tokens")
	}
	return nil
}

// IDs is TokenIDs as ints, as a run stores them.
func (r *Response) IDs() []int {
	if len(r.TokenIDs) == 0 {
		return nil
	}
	out := make([]int, len(r.TokenIDs))
	for i, id := range r.TokenIDs {
		out[i] = int(id)
	}
	return out
}

// numbers keeps the numeric fields of a JSON object, MaxTimings of them
// at most (the first by name).
func numbers(v any) map[string]float64 {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	out := map[string]float64{}
	for k, x := range m {
		if f, ok := x.(float64); ok {
			out[k] = f
		}
	}
	if len(out) > MaxTimings {
		for _, k := range sortedKeys(out)[MaxTimings:] {
			delete(out, k)
		}
	}
	return out
}
