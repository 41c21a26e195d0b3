package engine

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Concurrent is what CompleteAll measured: every stream's reply, in
// stream order, and the instant they were released together.
type Concurrent struct {
	Release time.Time
	Streams []*Response
}

// Since is t as time since the release.
func (c Concurrent) Since(t time.Time) time.Duration { return t.Sub(c.Release) }

// Longest is the stream whose reply ended last: its own span (Start,
// Wall, SelfCPU) covers the window best.
func (c Concurrent) Longest() *Response {
	var out *Response
	for _, r := range c.Streams {
		if r == nil {
			continue
		}
		if out == nil || r.Start.Add(r.Wall).After(out.Start.Add(out.Wall)) {
			out = r
		}
	}
	return out
}

// Window is the first stream's reply (its text, tokens, timings and final
// event) stretched over every stream: from the earliest send to the
// latest end, with the CPU time of the stream that ended last (decodebench's
// own, counted from its send to its end, which covers the others').
func (c Concurrent) Window() *Response {
	w := *c.Streams[0]
	if len(c.Streams) == 1 {
		return &w
	}
	end := w.Start.Add(w.Wall)
	for _, r := range c.Streams[1:] {
		if r.Start.Before(w.Start) {
			w.Start = r.Start
		}
		if e := r.Start.Add(r.Wall); e.After(end) {
			end = e
		}
	}
	w.Wall = end.Sub(w.Start)
	w.SelfCPU = c.Longest().SelfCPU
	return &w
}

// CompleteAll sends n identical streaming requests at once and measures
// each on its own, as Complete measures one. Every stream's connection is
// opened first; then all are released together, each sent from a
// goroutine of its own that was waiting for the release. A stream that
// fails fails the whole: the error names the first failing stream (in
// stream order), and the replies read so far are still returned.
func CompleteAll(ctx context.Context, baseURL string, req Request, n int) (Concurrent, error) {
	if n < 1 {
		return Concurrent{}, fmt.Errorf("%d streams", n)
	}
	d, err := dialectOf(req.Endpoint)
	if err != nil {
		return Concurrent{}, err
	}
	body, err := requestBody(d, req, true)
	if err != nil {
		return Concurrent{}, err
	}
	if req.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, req.Timeout)
		defer cancel()
	}
	streams := make([]*stream, 0, n)
	defer func() {
		for _, s := range streams {
			s.close() // a no-op error for those read to their end
		}
	}()
	for i := range n {
		s, err := openStream(ctx, baseURL, req.Endpoint, body)
		if err != nil {
			return Concurrent{}, timeoutErr(ctx, req, fmt.Errorf("stream %d of %d: request: %w", i+1, n, err))
		}
		streams = append(streams, s)
	}
	out := Concurrent{Streams: make([]*Response, n)}
	errs := make([]error, n)
	release := make(chan struct{})
	var wg sync.WaitGroup
	for i, s := range streams {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-release
			r, err := s.read(ctx, req, d)
			if err == nil {
				err = r.finish(req)
			}
			out.Streams[i], errs[i] = r, err
		}()
	}
	out.Release = time.Now()
	close(release)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return out, fmt.Errorf("stream %d of %d: %w", i+1, n, err)
		}
	}
	return out, nil
}
