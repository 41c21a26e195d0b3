package engine

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// pacedServer serves llama-server's real stream (testdata), its token
// events repeated to n, with the first token after firstAfter and the
// others gap apart, each flushed on its own: what a decoding engine does.
// It keeps when its last reply really arrived and sent its tokens, since
// on a loaded host its sleeps overrun: the client is judged against what
// the server did, not what it meant to do.
type pacedServer struct {
	*httptest.Server
	mu      sync.Mutex
	replies []sent
}

// sent is one finished reply as the server sent it: request to first
// token, and first to last token.
type sent struct{ ttft, span time.Duration }

func (p *pacedServer) reply(i int) sent {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.replies[i]
}

func pacedStream(t *testing.T, n int, firstAfter, gap time.Duration) *pacedServer {
	t.Helper()
	data, err := os.ReadFile("testdata/completion-stream.sse")
	if err != nil {
		t.Fatal(err)
	}
	events := strings.Split(strings.TrimSpace(string(data)), "\n\n")
	tokens, final := events[:len(events)-1], events[len(events)-1]
	p := &pacedServer{}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived := time.Now()
		fl := w.(http.Flusher)
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		fl.Flush()
		time.Sleep(firstAfter)
		var first, last time.Time
		for i := 0; i < n; i++ {
			if i > 0 {
				time.Sleep(gap)
			}
			if r.Context().Err() != nil {
				return
			}
			last = time.Now()
			if i == 0 {
				first = last
			}
			fmt.Fprintf(w, "%s\n\n", tokens[i%len(tokens)])
			fl.Flush()
		}
		fmt.Fprintf(w, "%s\n\n", final)
		p.mu.Lock()
		p.replies = append(p.replies, sent{first.Sub(arrived), last.Sub(first)})
		p.mu.Unlock()
	}))
	return p
}

// By default the kernel holds the stream between its first token and its
// end: decodebench wakes a handful of times, not once per event, and the
// time to first token and the span to the last token stay exact.
func TestHeldStreamWakesAtItsEnds(t *testing.T) {
	const n, firstAfter, gap = 120, 40 * time.Millisecond, 3 * time.Millisecond
	srv := pacedStream(t, n, firstAfter, gap)
	defer srv.Close()
	req := Request{Endpoint: "/completion", Prompt: "x", MaxTokens: 16}
	// The first reply teaches the size of the server's headers; from the
	// second on they wake decodebench together with the first token.
	first, err := Complete(context.Background(), srv.URL, req)
	if err != nil {
		t.Fatal(err)
	}
	held, err := Complete(context.Background(), srv.URL, req)
	if err != nil {
		t.Fatal(err)
	}
	req.Reads = ReadEveryEvent
	every, err := Complete(context.Background(), srv.URL, req)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("wake-ups: first held %d, held %d, every event %d; CPU: held %v, every event %v", first.wakeups, held.wakeups, every.wakeups, held.SelfCPU, every.SelfCPU)
	if first.Reads != ReadEnds || first.wakeups > 4 {
		t.Errorf("first held stream read as %v with %d wake-ups, want ends and at most 4", first.Reads, first.wakeups)
	}
	// Reads that returned data: the headers with the first token, the
	// end, and at most one more event that came before the hold.
	if held.Reads != ReadEnds || held.wakeups > 3 {
		t.Errorf("held stream read as %v with %d reads, want ends and at most 3", held.Reads, held.wakeups)
	}
	key := strings.TrimPrefix(srv.URL, "http://") + "/completion"
	if n, ok := headerSizes.Load(key); !ok || n.(int) < 50 || n.(int) > 400 {
		t.Errorf("learned header size %v (%v)", n, ok)
	}
	forgetHeaders(srv.URL)
	if _, ok := headerSizes.Load(key); ok {
		t.Error("a stopped server's header size is still known")
	}
	if every.Reads != ReadEveryEvent || every.wakeups < n/2 {
		t.Errorf("event-by-event stream read as %v with %d wake-ups, want about %d", every.Reads, every.wakeups, n)
	}
	for i, r := range []*Response{first, held, every} {
		// Exact but for a wake-up's lateness at either end.
		sent := srv.reply(i)
		if r.TTFT < sent.ttft || r.TTFT > sent.ttft+100*time.Millisecond {
			t.Errorf("%v: time to first token %v, the server sent it after %v", r.Reads, r.TTFT, sent.ttft)
		}
		span := r.LastTokenAt - r.FirstTokenAt
		if span < sent.span-100*time.Millisecond || span > sent.span+time.Second/2 {
			t.Errorf("%v: first to last token %v, the server sent them %v apart", r.Reads, span, sent.span)
		}
		if r.Events != n+1 || !r.Done || r.Text == "" {
			t.Errorf("%v: %d events, done %v", r.Reads, r.Events, r.Done)
		}
		if _, ok := r.TPOT(); !ok {
			t.Errorf("%v: no time per output token", r.Reads)
		}
	}
	if _, _, _, ok := held.ITL(); ok || held.EventsAt != nil {
		t.Error("a held stream reports inter-token latencies it did not measure")
	}
	if p50, _, _, ok := every.ITL(); !ok || p50 < gap/2 {
		t.Errorf("event-by-event ITL p50 %v (ok %v), want about %v", p50, ok, gap)
	}
}

// A held reply longer than decodebench keeps undecoded (maxHeldBytes)
// is decoded in parts, and reads as the same reply read event by event:
// text, ids, tokens, events and final fields, its last token at most its
// end.
func TestHeldReplyLongerThanKept(t *testing.T) {
	const n = 6000 // about 700 KB of llama-server's events
	srv := pacedStream(t, n, 0, 0)
	defer srv.Close()
	req := Request{Endpoint: "/completion", Prompt: "x", MaxTokens: 16}
	held, err := Complete(context.Background(), srv.URL, req)
	if err != nil {
		t.Fatal(err)
	}
	req.Reads = ReadEveryEvent
	every, err := Complete(context.Background(), srv.URL, req)
	if err != nil {
		t.Fatal(err)
	}
	if held.Reads != ReadEnds || held.Events != n+1 || held.StreamedTokens != every.StreamedTokens || len(held.TokenIDs) != every.StreamedTokens {
		t.Errorf("held reply read as %v: %d events, %d tokens streamed, %d ids; event by event %d tokens", held.Reads, held.Events, held.StreamedTokens, len(held.TokenIDs), every.StreamedTokens)
	}
	if held.Text != every.Text || !slices.Equal(held.TokenIDs, every.TokenIDs) || !reflect.DeepEqual(held.Final, every.Final) || held.OutputSHA256() != every.OutputSHA256() {
		t.Errorf("held and event-by-event replies differ: %d and %d bytes of text, %d and %d ids", len(held.Text), len(every.Text), len(held.TokenIDs), len(every.TokenIDs))
	}
	if sum := sha256.Sum256([]byte(held.Text)); held.OutputSHA256() != hex.EncodeToString(sum[:]) {
		t.Errorf("output hash %s is not the text's", held.OutputSHA256())
	}
	if held.LastTokenAt < held.FirstTokenAt || held.LastTokenAt > held.Wall {
		t.Errorf("tokens from %v to %v of a %v reply", held.FirstTokenAt, held.LastTokenAt, held.Wall)
	}
}

// A held stream that runs longer than holdCheck is checked once per
// holdCheck and still ends when the stream ends.
func TestHeldStreamLongerThanTheCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("takes 6 s")
	}
	srv := pacedStream(t, 60, 10*time.Millisecond, 100*time.Millisecond)
	defer srv.Close()
	r, err := Complete(context.Background(), srv.URL, Request{Endpoint: "/completion", Prompt: "x", MaxTokens: 16})
	if err != nil {
		t.Fatal(err)
	}
	if sent, span := srv.reply(0), r.LastTokenAt-r.FirstTokenAt; span < sent.span-100*time.Millisecond || span > sent.span+500*time.Millisecond {
		t.Errorf("first to last token %v, the server sent them %v apart", span, sent.span)
	}
	if r.wakeups > 8 {
		t.Errorf("%d wake-ups", r.wakeups)
	}
}

// A server that keeps the connection open after its reply does not end a
// held stream when the reply ends: the end is read late, when the server
// closes or at the next check. Where the kernel says when the last byte
// arrived (TCP_INFO, Linux) the stream ends then, so a late close (a
// loaded host delays a server's close) never changes the decode rate;
// elsewhere a reply read only by the check is an error that says what to
// do, never a wrong decode rate.
func TestHeldStreamServerKeepsConnectionOpen(t *testing.T) {
	data, err := os.ReadFile("testdata/completion-stream.sse")
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	for _, open := range []time.Duration{10 * time.Millisecond, 300 * time.Millisecond, holdCheck + time.Second} {
		t.Run(open.String(), func(t *testing.T) { keepOpen(t, ln, data, open) })
	}
}

func keepOpen(t *testing.T, ln net.Listener, data []byte, open time.Duration) {
	lastByte := make(chan time.Time, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		br := bufio.NewReader(c)
		hreq, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		var body bytes.Buffer
		body.ReadFrom(hreq.Body)
		events := strings.SplitAfter(string(data), "\n\n")
		fmt.Fprint(c, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
		for _, ev := range events {
			if ev == "" {
				continue
			}
			time.Sleep(5 * time.Millisecond)
			fmt.Fprintf(c, "%x\r\n%s\r\n", len(ev), ev)
		}
		fmt.Fprint(c, "0\r\n\r\n")
		lastByte <- time.Now()
		time.Sleep(open) // Connection: close ignored
	}()
	r, err := Complete(context.Background(), "http://"+ln.Addr().String(), Request{Endpoint: "/completion", Prompt: "x", MaxTokens: 16})
	sent := <-lastByte
	if runtime.GOOS != "linux" {
		if open < lateClose {
			if err != nil || r.DecodeTokPerSec() <= 0 {
				t.Fatalf("prompt close: %v", err)
			}
		} else if open >= holdCheck && (err == nil || !strings.Contains(err.Error(), "kept the connection open") || !strings.Contains(err.Error(), "event_times")) {
			t.Fatalf("err = %v", err)
		}
		return
	}
	if err != nil || r.DecodeTokPerSec() <= 0 {
		t.Fatalf("a close %v after the last byte: %v", open, err)
	}
	// The last token is timed at the last byte, not at the close: within
	// the kernel's millisecond clock and a scheduling delay, far from open.
	last := r.Start.Add(r.LastTokenAt)
	if d := last.Sub(sent); d < -20*time.Millisecond || d > 40*time.Millisecond {
		t.Errorf("a close %v after the last byte: the last token is timed %v from the last byte", open, d)
	}
	if open > lateClose && !strings.Contains(r.ReadsNote, "after its last byte arrived") {
		t.Errorf("a late close is not noted: %q", r.ReadsNote)
	}
	t.Logf("close %v: last token %v from the last byte; %s", open, last.Sub(sent), r.ReadsNote)
}

// A cancelled request ends a held stream promptly.
func TestHeldStreamCancel(t *testing.T) {
	srv := pacedStream(t, 1000, 5*time.Millisecond, 5*time.Millisecond)
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	start := time.Now()
	_, err := Complete(ctx, srv.URL, Request{Endpoint: "/completion", Prompt: "x", MaxTokens: 16})
	if err == nil || !strings.Contains(err.Error(), "canceled") {
		t.Errorf("err = %v", err)
	}
	if d := time.Since(start); d > 200*time.Millisecond+holdCheck+200*time.Millisecond {
		t.Errorf("cancel took %v", d)
	}
	// A timeout says so.
	_, err = Complete(context.Background(), srv.URL, Request{Endpoint: "/completion", Prompt: "x", MaxTokens: 16, Timeout: 300 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "timed out after 300ms") {
		t.Errorf("timeout err = %v", err)
	}
}
