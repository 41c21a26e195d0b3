package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
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
	// them (llama-server's return_tokens).
	StreamedTokens int
	TokenIDs       []int
	Events         int
	Text           string
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
	EventTokens []int
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

// TPOT is the time per output token after the first: (last − first token
// event) / (tokens − the first event's tokens). ok is false when undefined.
func (r *Response) TPOT() (tpot time.Duration, ok bool) {
	n := r.Tokens - r.FirstEventTokens
	if n <= 0 || r.LastTokenAt <= r.FirstTokenAt {
		return 0, false
	}
	return (r.LastTokenAt - r.FirstTokenAt) / time.Duration(n), true
}

// ITL returns the inter-token latency percentiles p50, p90, p99 over the
// gaps between token events, each gap shared by the tokens of the later
// event. ok is false unless every event was timestamped (ReadEveryEvent)
// and at least two carried tokens.
func (r *Response) ITL() (p50, p90, p99 time.Duration, ok bool) {
	if r.Reads != ReadEveryEvent || len(r.EventsAt) < 2 {
		return 0, 0, 0, false
	}
	var gaps []float64
	for i := 1; i < len(r.EventsAt); i++ {
		n := max(r.EventTokens[i], 1)
		gap := float64(r.EventsAt[i]-r.EventsAt[i-1]) / float64(n)
		for range n {
			gaps = append(gaps, gap)
		}
	}
	sort.Float64s(gaps)
	q := func(p float64) time.Duration { return time.Duration(stats.Quantile(gaps, p)) }
	return q(0.5), q(0.9), q(0.99), true
}

// DecodeTokPerSec is the client-side decode rate: tokens after the first
// event divided by the time after it. It is 0 when undefined.
func (r *Response) DecodeTokPerSec() float64 {
	n := r.Tokens - r.FirstEventTokens
	d := (r.LastTokenAt - r.FirstTokenAt).Seconds()
	if n <= 0 || d <= 0 {
		return 0
	}
	return float64(n) / d
}

// CompleteTokenIDs reports whether the streamed token ids cover every
// generated token. llama-server sends one id for an event that merges
// several tokens (a multi-byte character split across tokens), so its ids
// are complete only when their count matches the engine's token total.
func (r *Response) CompleteTokenIDs() bool {
	return len(r.TokenIDs) > 0 && len(r.TokenIDs) == r.Tokens
}

// E2ETokPerSec is tokens over the whole request's wall time.
func (r *Response) E2ETokPerSec() float64 {
	if r.Wall <= 0 {
		return 0
	}
	return float64(r.Tokens) / r.Wall.Seconds()
}

// HTTPError is a non-200 reply.
type HTTPError struct {
	Status int
	Body   string
}

func (e *HTTPError) Error() string {
	return fmt.Sprintf("engine answered HTTP %d: %s", e.Status, Quote(e.Body))
}

// client opens a fresh connection for every request. Reusing a kept-alive
// connection saves nothing worth measuring on loopback, and an engine that
// closes idle connections (llama-server does, between a warmup and the
// measured request) would otherwise turn a POST into a spurious EOF that
// Go's client may not retry. It sends the unmeasured requests (token
// replays); the measured stream has a connection of its own (stream.go).
// Its replies' headers are bounded (MaxHeaderBytes).
var client = httpClient()

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
	r.Timings = r.plausibleTimings(numbers(r.Final["timings"]), req.MaxTokens)
	r.Tokens, r.TokenSource = tokenCount(r, req.MaxTokens)
	if r.Tokens == 0 && r.Text == "" && r.Reasoning == "" {
		return errors.New("engine returned no tokens")
	}
	return nil
}

// post sends a JSON body.
func post(ctx context.Context, url string, body []byte) (*http.Response, error) {
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	hreq.Header.Set("Content-Type", "application/json")
	return client.Do(hreq)
}

func requestBody(d dialect, req Request, stream bool) ([]byte, error) {
	m := map[string]any{"stream": stream, "temperature": req.Temperature, "seed": req.Seed}
	if req.Model != "" {
		m["model"] = req.Model
	}
	if len(req.Stop) > 0 {
		m["stop"] = req.Stop
	}
	d.fields(m, req, stream)
	return json.Marshal(m)
}

// tokenCount takes the number of generated tokens from the engine's own
// totals first: counting stream events undercounts when the engine merges
// tokens (llama-server does, at multi-byte characters). A total that
// cannot be true (ImpossibleTokens) is passed over and noted.
func tokenCount(r *Response, maxTokens int) (int, string) {
	if v, ok := r.Timings["predicted_n"]; ok && v > 0 {
		return int(v), "timings.predicted_n" // checked by plausibleTimings
	}
	if v, ok := r.Final["tokens_predicted"].(float64); ok && v != 0 && r.plausibleTokens("tokens_predicted", v, maxTokens) {
		return int(v), "tokens_predicted"
	}
	if u, ok := r.Final["usage"].(map[string]any); ok {
		if v, ok := u["completion_tokens"].(float64); ok && v != 0 && r.plausibleTokens("usage.completion_tokens", v, maxTokens) {
			return int(v), "usage.completion_tokens"
		}
	}
	if len(r.TokenIDs) > 0 {
		return len(r.TokenIDs), "streamed token ids"
	}
	return r.StreamedTokens, schema.TokensFromEvents
}

// plausibleTokens reports whether a token total can be true, noting it
// in r.Impossible when it cannot.
func (r *Response) plausibleTokens(source string, v float64, maxTokens int) bool {
	if iv, bad := ImpossibleTokens(source, v, maxTokens); bad {
		r.Impossible = append(r.Impossible, iv)
		return false
	}
	return true
}

// plausibleTimings keeps the timing fields that can be true: finite, not
// negative, and a predicted_n within what the request allows. A rate
// whose count or time could not be true cannot be either. (Times are not
// checked against the request's wall time, nor rates against their count
// over their time: llama-server's own rate counts one token fewer than
// predicted_n, and a replayed reply arrives faster than it was made.)
func (r *Response) plausibleTimings(t map[string]float64, maxTokens int) map[string]float64 {
	bad := map[string]schema.ImpossibleValue{}
	for _, k := range sortedKeys(t) {
		v := t[k]
		iv, no := Impossible("timings."+k, v, false)
		if !no && k == "predicted_n" {
			iv, no = ImpossibleTokens("timings."+k, v, maxTokens)
		}
		if no {
			bad[k] = iv
		}
	}
	for _, rate := range []struct{ rate, n, ms string }{
		{"predicted_per_second", "predicted_n", "predicted_ms"},
		{"prompt_per_second", "prompt_n", "prompt_ms"},
	} {
		v, ok := t[rate.rate]
		_, done := bad[rate.rate]
		_, badN := bad[rate.n]
		_, badMS := bad[rate.ms]
		if ok && !done && (badN || badMS) {
			bad[rate.rate] = schema.ImpossibleValue{Source: "timings." + rate.rate, Value: FormatValue(v), Why: schema.Inconsistent}
		}
	}
	for _, k := range sortedKeys(t) {
		if iv, ok := bad[k]; ok {
			r.Impossible = append(r.Impossible, iv)
			delete(t, k)
		}
	}
	return t
}

func sortedKeys(m map[string]float64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// numbers keeps the numeric fields of a JSON object.
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
	return out
}

// Replay sends req once more without streaming and returns the generated
// text and every token id. llama-server's stream leaves out the ids of
// tokens that end inside a multi-byte character (16 tokens arrive with 12
// ids), so a token-level identity check needs this second, unmeasured
// request. /completion answers with all ids in `tokens`; the OpenAI
// endpoints are asked for logprobs, whose entries carry ids on engines that
// give them (llama-server does, but drops the same held-back tokens, so
// there the ids come back incomplete and are refused).
func Replay(ctx context.Context, baseURL string, req Request) (string, []int, error) {
	d, err := dialectOf(req.Endpoint)
	if err != nil {
		return "", nil, err
	}
	body, err := requestBody(d, req, false)
	if err != nil {
		return "", nil, err
	}
	b, err := postReply(ctx, baseURL, req, body, "token replay")
	if err != nil {
		return "", nil, err
	}
	return d.replayIDs(b)
}

// postReply sends a request that is not streamed (a token replay, a
// diagnosis) under the request's timeout and reads its reply within
// MaxReplyBytes; an error status quotes at most MaxQuotedBytes of it.
func postReply(ctx context.Context, baseURL string, req Request, body []byte, what string) ([]byte, error) {
	if req.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, req.Timeout)
		defer cancel()
	}
	resp, err := post(ctx, baseURL+req.Endpoint, body)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, quoteErr(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, MaxQuotedBytes+1))
		return nil, &HTTPError{Status: resp.StatusCode, Body: strings.TrimSpace(string(b))}
	}
	b, err := readBounded(resp.Body, MaxReplyBytes, "the "+what+"'s reply")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, quoteErr(err))
	}
	return b, nil
}

// textBuilders collect the generated text and reasoning of a stream.
type textBuilders struct{ text, reasoning bytes.Buffer }

// take decodes one stream event into the response.
func (r *Response) take(d dialect, ev Event, tb *textBuilders) error {
	r.Events++
	if ev.Field == "error" {
		return fmt.Errorf("engine sent an error event: %s", Quote(string(ev.Data)))
	}
	var obj map[string]any
	if err := json.Unmarshal(ev.Data, &obj); err != nil {
		return fmt.Errorf("malformed stream event %d: %v: %s", r.Events, quoteErr(err), Quote(string(ev.Data)))
	}
	if e, ok := obj["error"]; ok {
		b, _ := json.Marshal(e)
		return fmt.Errorf("engine reported an error: %s", Quote(string(b)))
	}
	piece, think, ids, stop := d.event(obj)
	tb.text.WriteString(piece)
	tb.reasoning.WriteString(think)
	r.TokenIDs = append(r.TokenIDs, ids...)
	n := len(ids)
	if n == 0 && (piece != "" || think != "") {
		n = 1 // an engine that does not return ids: one token per event
	}
	if n > 0 {
		at := ev.At.Sub(r.Start)
		if r.FirstTokenAt == 0 {
			r.FirstTokenAt, r.TTFT, r.FirstEventTokens = at, at, n
		}
		r.LastTokenAt = at
		r.StreamedTokens += n
		if r.Reads == ReadEveryEvent {
			r.EventsAt = append(r.EventsAt, at)
			r.EventTokens = append(r.EventTokens, n)
		}
	}
	for k, v := range obj {
		r.Final[k] = v
	}
	if stop {
		r.Done = true
	}
	return nil
}
