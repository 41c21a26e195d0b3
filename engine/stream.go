package engine

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"
)

// Reads says how the measured stream is read, which decides what the
// client can time and what it costs the engine.
type Reads int

const (
	// ReadEnds wakes decodebench for the reply's first token event (with
	// its headers) and the end of the stream, and lets the kernel hold
	// everything in between (SO_RCVLOWAT): time to first token, the decode
	// rate and the wall time stay exact; per-token arrival times are not
	// taken. On the 2-core development VM every wake-up of a Go process
	// costs 90-380 µs of CPU, so reading each of a few hundred token
	// events cost the engine about 3.5% of a core; reading the ends costs
	// about 0.17% (make bench).
	ReadEnds Reads = iota
	// ReadEveryEvent timestamps every token event as it arrives:
	// inter-token latency percentiles and the median step rate need it.
	ReadEveryEvent
)

func (r Reads) String() string {
	if r == ReadEveryEvent {
		return "every event"
	}
	return "ends"
}

// sparseLowWater is the receive low-water mark while the stream is held in
// the kernel: far more than a reply's events between the first and the
// last, so that only the end of the stream (the server closes the
// connection) wakes the reader.
const sparseLowWater = 256 << 10

// holdCheck is how long a held stream may go without waking decodebench:
// a server that keeps the connection open after its reply (ignoring
// Connection: close) would otherwise hold the reader until it times out.
// Each check costs one wake-up (and the Go runtime's monitor thread,
// woken with it, spins some fifty more), so checks are rare.
const holdCheck = 5 * time.Second

// stream is one measured streaming request on a connection of its own.
type stream struct {
	conn *heldConn
	br   *bufio.Reader
	hreq *http.Request
	// key names the server and path, for headerSizes; headerHeld says
	// the kernel holds the reply's headers until more follows.
	key        string
	headerHeld bool
	// holdErr says why the kernel could not hold the stream.
	holdErr error
}

// heldConn is the connection as the reply's reader sees it. While the
// kernel holds the stream, a read that holdCheck ends without data is
// retried (what had arrived is returned), and fromCheck says whether the
// last data came from such a check rather than from the end of the
// stream or a full buffer.
type heldConn struct {
	net.Conn
	ctx       context.Context
	held      bool
	fromCheck bool
	bytes     int64
	wakeups   int // reads that returned data, for tests
	// limit, when positive, is how many bytes the connection may give in
	// all, and limitErr what reading past it returns: the reply's headers
	// are read under one limit, its body (chunk framing and trailers
	// included, which the body's own bound does not see) under another.
	// overLimit says it was reached.
	limit     int64
	limitErr  error
	overLimit bool
}

func (c *heldConn) Read(p []byte) (int, error) {
	if c.limit > 0 {
		left := c.limit - c.bytes
		if left <= 0 {
			c.overLimit = true
			return 0, c.limitErr
		}
		p = p[:min(int64(len(p)), left)]
	}
	checked := false
	for {
		if c.held && c.ctx.Err() != nil {
			return 0, c.ctx.Err()
		}
		if c.held {
			c.Conn.SetReadDeadline(time.Now().Add(holdCheck))
		}
		n, err := c.Conn.Read(p)
		if c.held && n == 0 && errors.Is(err, os.ErrDeadlineExceeded) && c.ctx.Err() == nil {
			checked = true
			continue
		}
		if n > 0 {
			c.fromCheck = checked
			c.bytes += int64(n)
			c.wakeups++
		}
		return n, err
	}
}

// lateClose is how long after its last byte a server may close the
// connection before the run notes that the end of its held stream was
// taken from the kernel's time of the last byte.
const lateClose = 50 * time.Millisecond

// errLateEnd says a held stream's end was seen late.
func errLateEnd(late string) error {
	return fmt.Errorf("the engine kept the connection open after its reply (%s; it ignores Connection: close), "+
		"so the end of the stream could not be timed while the kernel held it; "+
		"set engine.request.event_times: true to read every event", late)
}

// openStream connects to the server and prepares the request, before the
// measured window begins: connecting and allocating are not the engine's
// time, and decodebench's CPU for them would only add to its footprint.
func openStream(ctx context.Context, baseURL, path string, body []byte) (*stream, error) {
	u, err := url.Parse(baseURL + path)
	if err != nil {
		return nil, err
	}
	if u.Scheme != "http" {
		return nil, fmt.Errorf("unsupported scheme %q (the engine is reached over plain HTTP)", u.Scheme)
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "text/event-stream")
	// The server closes the connection at the end of the reply: that
	// close is what ends a held stream.
	hreq.Close = true
	var d net.Dialer
	raw, err := d.DialContext(ctx, "tcp", u.Host)
	if err != nil {
		return nil, err
	}
	conn := &heldConn{Conn: raw, ctx: ctx}
	s := &stream{conn: conn, br: bufio.NewReaderSize(conn, 64<<10), hreq: hreq, key: u.Host + u.Path}
	// The headers of a server's reply come at once, before its first
	// event; held until one more byte follows them, they and the first
	// event wake decodebench once. Their size is learned from the
	// previous reply of the same server (a warmup).
	if n, ok := headerSizes.Load(s.key); ok && setLowWater(raw, n.(int)+1) == nil {
		s.headerHeld = true
	}
	return s, nil
}

// headerSizes remembers the size of the last reply's headers per server
// and path. A stopped server's sizes are forgotten (forgetHeaders), so a
// later engine on the same port learns its own.
var headerSizes sync.Map

// forgetHeaders drops what headerSizes knows of the server at baseURL.
func forgetHeaders(baseURL string) {
	host := strings.TrimPrefix(baseURL, "http://")
	headerSizes.Range(func(k, _ any) bool {
		if strings.HasPrefix(k.(string), host+"/") {
			headerSizes.Delete(k)
		}
		return true
	})
}

var errHeadersTooLarge = tooLarge("the reply's status line and headers", MaxHeaderBytes)

// send writes the request and reads the reply's status and headers, no
// more than MaxHeaderBytes of them (and what the reader buffers beyond).
func (s *stream) send() (*http.Response, error) {
	if err := s.hreq.Write(s.conn); err != nil {
		return nil, err
	}
	s.conn.limit, s.conn.limitErr = s.conn.bytes+MaxHeaderBytes+int64(s.br.Size()), errHeadersTooLarge
	resp, err := http.ReadResponse(s.br, s.hreq)
	s.conn.limit = 0
	if s.conn.overLimit || (err == nil && int(s.conn.bytes)-s.br.Buffered() > MaxHeaderBytes) {
		if resp != nil {
			resp.Body.Close()
		}
		return nil, errHeadersTooLarge
	}
	if err != nil {
		return nil, quoteErr(err)
	}
	headerSizes.Store(s.key, int(s.conn.bytes)-s.br.Buffered())
	if s.headerHeld {
		// Back to waking for any byte until the first token event.
		if err := setLowWater(s.conn.Conn, 1); err != nil {
			resp.Body.Close()
			return nil, err
		}
	}
	return resp, nil
}

// hold asks the kernel to keep the rest of the reply until it ends (or a
// quarter of a megabyte of it is waiting), instead of waking decodebench
// for every event. Where the platform refuses, the stream is read event by
// event and holdErr says why.
func (s *stream) hold() {
	if s.conn.held || s.holdErr != nil {
		return
	}
	if err := setLowWater(s.conn.Conn, sparseLowWater); err != nil {
		s.holdErr = err
		return
	}
	s.conn.held = true
}

func (s *stream) close() error { return s.conn.Close() }

// streamed reads the reply to req and measures it. Until the first event
// that carries tokens every event is decoded as it arrives; after it, in
// ReadEnds mode, the kernel holds the stream and the remaining events are
// decoded once it has ended, outside the measured window (but for those
// of a reply longer than maxHeldBytes, decoded that many bytes at a time).
func streamed(ctx context.Context, baseURL string, req Request, d dialect, body []byte) (*Response, error) {
	if req.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, req.Timeout)
		defer cancel()
	}
	s, err := openStream(ctx, baseURL, req.Endpoint, body)
	if err != nil {
		return nil, timeoutErr(ctx, req, fmt.Errorf("request: %w", err))
	}
	return s.read(ctx, req, d)
}

// read sends the request of an open stream, reads the reply and measures
// it, then closes the stream.
func (s *stream) read(ctx context.Context, req Request, d dialect) (*Response, error) {
	defer s.close()
	// A cancelled or timed-out request unblocks the reader by expiring
	// the connection's deadline.
	stop := context.AfterFunc(ctx, func() { s.conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()

	r := &Response{Final: map[string]any{}, Reads: req.Reads}
	cpu0 := selfCPU()
	r.Start = time.Now()
	resp, err := s.send()
	if err != nil {
		return nil, timeoutErr(ctx, req, fmt.Errorf("request: %w", quoteErr(err)))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, MaxQuotedBytes+1))
		return nil, &HTTPError{Status: resp.StatusCode, Body: string(bytes.TrimSpace(b))}
	}
	rp := newReply()
	rp.maxIDs = idsBound(req.MaxTokens)
	take := func(field string, data []byte, at time.Duration) error { return r.take(d, rp, field, data, at) }
	var held heldEvents
	heldTokens := false // some held events were decoded before the end
	what := fmt.Sprintf("the stream (for max_tokens %d)", req.MaxTokens)
	limited := newBoundedReader(resp.Body, StreamLimit(req.MaxTokens), what)
	// What the connection carries beyond the body (chunk framing,
	// trailers) is bounded too: half as much again as the body.
	wire := StreamLimit(req.MaxTokens) + StreamLimit(req.MaxTokens)/2 + 64<<10
	s.conn.limit = s.conn.bytes + wire
	s.conn.limitErr = tooLarge(what+" with its framing", wire)
	done, err := ReadEvents(limited, time.Now, func(ev Event) error {
		at := ev.At.Sub(r.Start)
		if r.FirstTokenAt != 0 && req.Reads == ReadEnds {
			if held.add(ev.Field, ev.Data, at) {
				return nil
			}
			tokens := r.StreamedTokens
			if err := held.drain(take); err != nil {
				return err
			}
			heldTokens = heldTokens || r.StreamedTokens > tokens
			if held.add(ev.Field, ev.Data, at) {
				return nil
			}
		}
		if err := take(ev.Field, ev.Data, at); err != nil {
			return err
		}
		if r.FirstTokenAt != 0 && req.Reads == ReadEnds {
			if s.hold(); s.holdErr != nil {
				// Every event wakes decodebench: time each.
				r.Reads = ReadEveryEvent
			}
		}
		return nil
	})
	woke := time.Now()
	r.Wall = woke.Sub(r.Start)
	// How long ago the last byte arrived, where the kernel says (Linux):
	// read now, before anything else delays it.
	age, knowAge := lastDataAge(s.conn.Conn)
	r.wakeups = s.conn.wakeups
	if cpu1 := selfCPU(); cpu0 >= 0 && cpu1 >= cpu0 {
		r.SelfCPU = cpu1 - cpu0
	}
	if s.holdErr != nil {
		r.Reads = ReadEveryEvent
		r.ReadsNote = "the kernel refused to hold the stream (" + s.holdErr.Error() + "), so every event woke decodebench"
	}
	if err == nil && s.conn.held {
		// The end was read when the server closed the connection (or at
		// a check). Where the kernel says when the last byte arrived, the
		// held events end then, however late the close came (a loaded
		// host can delay a server's close by hundreds of milliseconds);
		// elsewhere a late end cannot be timed.
		switch {
		case knowAge:
			end := woke.Add(-age)
			// The kernel stamps the last byte as it arrives, the first
			// token event when decodebench read it: on a reply that
			// arrives all at once (or a loaded host) the read can come
			// after the last byte's arrival. The stream does not end
			// before its first token was read.
			if first := r.Start.Add(r.FirstTokenAt); r.FirstTokenAt != 0 && end.Before(first) {
				end = first
			}
			endAt := end.Sub(r.Start)
			if heldTokens && r.LastTokenAt > endAt {
				r.LastTokenAt = endAt
			}
			take = func(field string, data []byte, at time.Duration) error {
				return r.take(d, rp, field, data, min(at, endAt))
			}
			if end.After(r.Start) {
				r.Wall = end.Sub(r.Start)
			}
			if age > lateClose {
				r.ReadsNote = fmt.Sprintf("the reply's end was read %s after its last byte arrived (the engine closed the connection late, or a check read it); the stream ends when the kernel received that byte", age.Round(time.Millisecond))
			}
		case s.conn.fromCheck:
			if ctx.Err() == nil {
				r.Final = rp.finalReply()
			}
			return r, errLateEnd(fmt.Sprintf("the reply's end was read only by the %s check", holdCheck))
		}
	}
	if err == nil {
		err = held.drain(take)
	}
	if err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) || ctx.Err() != nil {
			err = timeoutErr(ctx, req, fmt.Errorf("stream cut after %d events: %w", r.Events+held.n, err))
		}
		// Cancelled or timed out: the kept fields are not decoded (a
		// hostile engine's would cost what the run no longer needs).
		if ctx.Err() == nil {
			r.Final = rp.finalReply()
		}
		return r, err
	}
	r.Done = r.Done || done
	rp.finish(r)
	return r, nil
}

// timeoutErr names a request that ran out of time, or passes err through.
func timeoutErr(ctx context.Context, req Request, err error) error {
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("request timed out after %s (%v)", req.Timeout, err)
	case ctx.Err() != nil:
		return fmt.Errorf("%w (%v)", ctx.Err(), err)
	}
	return err
}
