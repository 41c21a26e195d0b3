package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"unicode/utf8"
)

// Bounds on everything decodebench reads from an engine. Each is checked
// while reading, before what was read is kept, so that no engine output,
// however large or however long it goes on, can grow decodebench's memory
// past them; passing one ends the run with an error that says which. The
// docs/reference/bounds-and-security.md states them.
const (
	// MaxEventBytes bounds one server-sent event (and each of its lines).
	MaxEventBytes = 16 << 20
	// MaxHeaderBytes bounds an HTTP reply's status line and headers.
	MaxHeaderBytes = 1 << 20
	// StreamBaseBytes and StreamBytesPerToken bound a measured stream's
	// body: StreamBaseBytes plus StreamBytesPerToken per max_tokens, at
	// most MaxStreamBytes. A llama-server token event is about 120 bytes.
	StreamBaseBytes     = 32 << 20
	StreamBytesPerToken = 1 << 10
	MaxStreamBytes      = 256 << 20
	// MaxFinalBytes bounds a stream's top-level fields as kept from its
	// events (Response.Final, each field the last value an event gave
	// it): two events' worth, where an engine's reply has a few dozen
	// small fields that every event repeats.
	MaxFinalBytes = 2 * MaxEventBytes
	// MaxReplyBytes bounds a non-streamed reply (a token replay).
	MaxReplyBytes = 64 << 20
	// MaxPropsBytes bounds the server's GET /props reply.
	MaxPropsBytes = 8 << 20
	// MaxMetricsBytes bounds one scrape of a metrics page.
	MaxMetricsBytes = 32 << 20
	// MaxMetricsLines bounds the lines of a metrics page that is parsed:
	// parsing keeps about a kilobyte a family, so a page of three million
	// one-sample families within the byte bound took 3.7 GB. llama-server's
	// page has a few dozen lines, vLLM's a few hundred.
	MaxMetricsLines = 50_000
	// MaxTimings bounds the fields of a reply's timings object a run keeps
	// (the first by name): llama-server's has about a dozen, and a record
	// whose runs name more than recorder.MaxMetricNames metrics, timings
	// and counters is refused by check.
	MaxTimings = 64
	// MaxVersionBytes bounds what a version command (or git on the
	// engine's source folder) may print.
	MaxVersionBytes = 64 << 10
	// MaxQuotedBytes bounds engine text quoted in an error or a note.
	MaxQuotedBytes = 256
)

// StreamLimit is the most bytes a measured stream may carry for a request
// of maxTokens.
func StreamLimit(maxTokens int) int64 {
	n := int64(StreamBaseBytes) + int64(max(maxTokens, 0))*StreamBytesPerToken
	return min(n, MaxStreamBytes)
}

// ErrTooLarge is wrapped by every error that reports a bound passed.
var ErrTooLarge = errors.New("larger than decodebench accepts")

// tooLarge says what passed which bound.
func tooLarge(what string, limit int64) error {
	return fmt.Errorf("%s: %w (the limit is %s; see docs/reference/bounds-and-security.md)", what, ErrTooLarge, sizeText(limit))
}

func sizeText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// boundedReader reads at most limit bytes of r; reading past them is an
// error naming what was read, never a silent cut.
type boundedReader struct {
	r     io.Reader
	left  int64
	limit int64
	what  string
}

func newBoundedReader(r io.Reader, limit int64, what string) *boundedReader {
	return &boundedReader{r: r, left: limit, limit: limit, what: what}
}

func (b *boundedReader) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// One more byte says whether the source has more.
		var one [1]byte
		n, err := b.r.Read(one[:])
		if n > 0 {
			return 0, tooLarge(b.what, b.limit)
		}
		if err == nil {
			err = io.ErrNoProgress
		}
		return 0, err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	return n, err
}

// readBounded reads all of r, failing when it holds more than limit bytes.
func readBounded(r io.Reader, limit int64, what string) ([]byte, error) {
	return io.ReadAll(newBoundedReader(r, limit, what))
}

// Quote shortens engine text for an error or a note: at most
// MaxQuotedBytes, cut at a character boundary, saying how much was cut.
func Quote(s string) string {
	if len(s) <= MaxQuotedBytes {
		return s
	}
	cut := MaxQuotedBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("… (%d more bytes)", len(s)-cut)
}

// quoteErr is err with its text shortened (Quote), keeping what it wraps.
func quoteErr(err error) error {
	if err == nil || len(err.Error()) <= MaxQuotedBytes {
		return err
	}
	return &quotedError{err}
}

type quotedError struct{ err error }

func (e *quotedError) Error() string { return Quote(e.err.Error()) }
func (e *quotedError) Unwrap() error { return e.err }

// httpClient is a client whose replies' headers are bounded, and each of
// whose connections (one a request) carries at most maxConnBytes: bodies
// are bounded where they are read, and this bounds what the reader does
// not see (chunk framing, trailers).
func httpClient() *http.Client {
	var d net.Dialer
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &limitedConn{Conn: c, left: maxConnBytes}, nil
	}
	return &http.Client{Transport: &http.Transport{DisableKeepAlives: true, Proxy: nil, MaxResponseHeaderBytes: MaxHeaderBytes, DialContext: dial}}
}

// maxConnBytes bounds one connection of httpClient: the largest body it
// reads (a token replay) half as much again, and its headers.
const maxConnBytes = MaxReplyBytes + MaxReplyBytes/2 + MaxHeaderBytes

// limitedConn fails reads past what it may carry.
type limitedConn struct {
	net.Conn
	left int64
}

var errConnTooLarge = tooLarge("a reply with its framing", maxConnBytes)

func (c *limitedConn) Read(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, errConnTooLarge
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.Conn.Read(p)
	c.left -= int64(n)
	return n, err
}
