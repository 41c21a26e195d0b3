package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// How the client reaches an engine's HTTP server: a fresh connection a
// request, a JSON body, and replies read within their bounds (bounds.go).

// client opens a fresh connection for every request. Reusing a kept-alive
// connection saves nothing worth measuring on loopback, and an engine that
// closes idle connections (llama-server does, between a warmup and the
// measured request) would otherwise turn a POST into a spurious EOF that
// Go's client may not retry. It sends the unmeasured requests (token
// replays); the measured stream has a connection of its own (stream.go).
// Its replies' headers are bounded (MaxHeaderBytes).
var client = httpClient()

// HTTPError is a non-200 reply.
type HTTPError struct {
	Status int
	Body   string
}

func (e *HTTPError) Error() string {
	return fmt.Sprintf("engine answered HTTP %d: %s", e.Status, Quote(e.Body))
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

// requestBody is req's JSON body for its endpoint's dialect, streamed or
// not.
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
