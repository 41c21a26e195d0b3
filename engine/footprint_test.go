package engine

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"testing"
	"time"
)

// What a streamed token costs decodebench: a reply of many one-token
// events, the shape of a hostile engine's (or of many long concurrent
// streams), read through the real client path.

// floodEvent is one llama-server token event with a one-byte text.
const floodEvent = `data: {"index":0,"content":"a","tokens":[7],"stop":false,"id_slot":-1,"tokens_predicted":1,"tokens_evaluated":5}` + "\n\n"

// floodServer streams n floodEvents and a final event as fast as the
// connection takes them, from one buffer written again and again: the
// server's own memory does not grow with n. With pause set, it stops
// after pauseAt events until pause is closed, so that what the client
// keeps in the middle of a reply can be measured.
type floodServer struct {
	*httptest.Server
	pauseAt int
	paused  chan struct{} // closed when the server has paused
	pause   chan struct{} // closed to let it go on
}

func newFloodServer(n, pauseAt int) *floodServer {
	const batch = 1024
	chunk := bytes.Repeat([]byte(floodEvent), batch)
	final := []byte(`data: {"index":0,"content":"","tokens":[],"stop":true,"tokens_predicted":` + strconv.Itoa(n) + `,"timings":{"predicted_per_second":100}}` + "\n\n")
	f := &floodServer{pauseAt: pauseAt, paused: make(chan struct{}), pause: make(chan struct{})}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		write := func(from, to int) bool {
			for i := from; i < to; i += batch {
				k := min(to-i, batch)
				if _, err := w.Write(chunk[:k*len(floodEvent)]); err != nil {
					return false
				}
			}
			return true
		}
		if pauseAt > 0 {
			if !write(0, pauseAt) {
				return
			}
			w.(http.Flusher).Flush()
			close(f.paused)
			<-f.pause
		}
		if write(pauseAt, n) {
			w.Write(final)
		}
	}))
	return f
}

// footprint is what one flooded reply cost decodebench, each per token
// and beyond the reply's text: what it kept in the middle of the reply
// and what its Response keeps at the end (both after a collection), and
// what reading it allocated in all.
type footprint struct {
	kept, retained, allocated float64
}

// floodFootprint reads a reply of n one-token events and measures it,
// pausing the server after nine tenths of them.
func floodFootprint(t testing.TB, n int, reads Reads) footprint {
	srv := newFloodServer(n, n*9/10)
	defer srv.Close()
	req := Request{Endpoint: "/completion", Prompt: "x", MaxTokens: n, Reads: reads}
	var before, middle, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	type result struct {
		r   *Response
		err error
	}
	done := make(chan result, 1)
	go func() {
		r, err := Complete(context.Background(), srv.URL, req)
		done <- result{r, err}
	}()
	select {
	case <-srv.paused:
	case res := <-done:
		t.Fatalf("the reply ended before the server paused: %v", res.err)
	}
	// What was sent reaches the client: all of it read, or (while the
	// kernel holds the stream) all but less than a low-water mark.
	time.Sleep(300 * time.Millisecond)
	runtime.GC()
	runtime.ReadMemStats(&middle)
	close(srv.pause)
	res := <-done
	if res.err != nil {
		t.Fatal(res.err)
	}
	r := res.r
	runtime.GC()
	runtime.ReadMemStats(&after)
	if r.Tokens != n || len(r.Text) != n {
		t.Fatalf("%d tokens and %d bytes of text, want %d", r.Tokens, len(r.Text), n)
	}
	text := float64(len(r.Text) + len(r.Reasoning))
	fp := footprint{
		kept:      (float64(middle.HeapAlloc) - float64(before.HeapAlloc) - float64(srv.pauseAt)) / float64(srv.pauseAt),
		retained:  (float64(after.HeapAlloc) - float64(before.HeapAlloc) - text) / float64(n),
		allocated: (float64(after.TotalAlloc-before.TotalAlloc) - text) / float64(n),
	}
	runtime.KeepAlive(r)
	return fp
}

// What a token of a long reply costs is a few dozen bytes beyond its
// text, read either way: while the measured window holds the collector
// off (harness.holdGC) what is allocated is what memory grows by, so both
// what the reply allocates and what its Response keeps are bounded.
func TestStreamBytesPerToken(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 200,000 events")
	}
	const n = 200_000
	for _, reads := range []Reads{ReadEnds, ReadEveryEvent} {
		fp := floodFootprint(t, n, reads)
		t.Logf("reads %s, per token beyond its text: %.1f bytes kept mid-reply, %.1f retained, %.1f allocated", reads, fp.kept, fp.retained, fp.allocated)
		if fp.kept > 64 {
			t.Errorf("reads %s: %.1f bytes per token kept in the middle of the reply beyond its text, want at most 64", reads, fp.kept)
		}
		if fp.retained > 64 {
			t.Errorf("reads %s: %.1f bytes per token retained beyond its text, want at most 64", reads, fp.retained)
		}
		if fp.allocated > 96 {
			t.Errorf("reads %s: %.1f bytes per token allocated beyond its text, want at most 96", reads, fp.allocated)
		}
	}
}

// TestStreamFloodRSS reads a reply of DECODEBENCH_FLOOD_EVENTS one-token
// events (on each of DECODEBENCH_FLOOD_STREAMS concurrent streams, 1 by
// default; DECODEBENCH_FLOOD_READS=every to read every event) with the
// collector held off as in a measured window, for a measure of peak
// memory from outside (/usr/bin/time -v on the test binary); it is
// skipped unless DECODEBENCH_FLOOD_EVENTS is set.
func TestStreamFloodRSS(t *testing.T) {
	n, err := strconv.Atoi(os.Getenv("DECODEBENCH_FLOOD_EVENTS"))
	if err != nil {
		t.Skip("DECODEBENCH_FLOOD_EVENTS is not set")
	}
	streams, err := strconv.Atoi(os.Getenv("DECODEBENCH_FLOOD_STREAMS"))
	if err != nil {
		streams = 1
	}
	reads := ReadEnds
	if os.Getenv("DECODEBENCH_FLOOD_READS") == "every" {
		reads = ReadEveryEvent
	}
	srv := newFloodServer(n, 0)
	defer srv.Close()
	req := Request{Endpoint: "/completion", Prompt: "x", MaxTokens: n, Reads: reads}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(int64(before.HeapAlloc) + 512<<20))
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	cpu := selfCPU()
	c, err := CompleteAll(context.Background(), srv.URL, req, streams)
	if err != nil {
		t.Fatal(err)
	}
	cpu = selfCPU() - cpu
	runtime.ReadMemStats(&after)
	tokens := float64(n * streams)
	t.Logf("%d streams of %d events, reads %s: %.1f bytes allocated a token, %.0f ns of CPU a token (client and server)", streams, n, reads, float64(after.TotalAlloc-before.TotalAlloc)/tokens, float64(cpu.Nanoseconds())/tokens)
	runtime.KeepAlive(c)
}
