package engine

import (
	"sort"
	"time"

	"github.com/decodebench/decodebench/stats"
)

// The metrics derived from a Response after its stream: the rates, the
// time per output token and the inter-token latencies the client reports
// beside the engine's own numbers.

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
	// One gap a token, each event's shared by its tokens: sized first,
	// since the reply may be long.
	size := 0
	for _, n := range r.EventTokens[1:] {
		size += int(max(n, 1))
	}
	gaps := make([]float64, 0, size)
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
func (r *Response) E2ETokPerSec() float64 { return E2ERate(r.Tokens, r.Wall.Seconds()) }

// E2ERate is tokens over a wall time in seconds, 0 when undefined: the
// client's e2e_tok_s, which check computes again from the tokens and
// wall_s a request stores.
func E2ERate(tokens int, wallS float64) float64 {
	if wallS <= 0 {
		return 0
	}
	return float64(tokens) / wallS
}
