package engine

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/internal/execfile"
)

// repeated is n bytes of c, then tail: a large input made as it is read.
type repeated struct {
	n    int64
	c    byte
	tail string
}

func (r *repeated) Read(p []byte) (int, error) {
	if r.n <= 0 {
		if r.tail == "" {
			return 0, io.EOF
		}
		n := copy(p, r.tail)
		r.tail = r.tail[n:]
		return n, nil
	}
	k := min(int64(len(p)), r.n)
	for i := range p[:k] {
		p[i] = r.c
	}
	r.n -= k
	return int(k), nil
}

// allocated is how many bytes fn allocated.
func allocated(fn func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	fn()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// One 200 MB event line took 432 MB: the size limit was checked after
// the line was read. It is checked while reading, so the line costs at
// most about the limit, and the error says which bound was passed.
func TestEventLineBoundedWhileReading(t *testing.T) {
	for _, tt := range []struct{ name, head, tail string }{
		{"one line", "data: ", "\n\n"},
		{"many lines of one event", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var r io.Reader = io.MultiReader(strings.NewReader(tt.head), &repeated{n: 200 << 20, c: 'a', tail: tt.tail})
			if tt.head == "" {
				// 200 MB of short data lines, never a blank line.
				r = io.MultiReader(strings.NewReader("data: x\n"), &lines{left: 200 << 20})
			}
			var err error
			got := allocated(func() { _, err = ReadEvents(r, time.Now, func(Event) error { return nil }) })
			if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "16 MiB") {
				t.Errorf("err = %v", err)
			}
			if got > 3*MaxEventBytes {
				t.Errorf("reading allocated %d MB", got>>20)
			}
		})
	}
}

// lines is an endless event: data lines without the blank line that ends it.
type lines struct{ left int64 }

func (l *lines) Read(p []byte) (int, error) {
	if l.left <= 0 {
		return 0, io.EOF
	}
	const line = "data: 0123456789012345678901234567890123456789\n"
	n := 0
	for n+len(line) <= len(p) && l.left > 0 {
		n += copy(p[n:], line)
		l.left -= int64(len(line))
	}
	return n, nil
}

// A valid stream that never sends its stop event reached 10.8 GB: events
// after the first token were kept while the collector was held off. The
// stream is bounded by what max_tokens allows (StreamLimit), and passing
// it ends the run with an error that says so.
func TestStreamThatNeverStopsIsBounded(t *testing.T) {
	event := `data: {"content":"` + strings.Repeat("ab", 500) + `","tokens":[7],"stop":false}` + "\n\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		bw := bufio.NewWriterSize(w, 64<<10)
		// 200 MB (a finite test), far past the bound.
		for sent := 0; sent < 200<<20; sent += len(event) {
			if _, err := bw.WriteString(event); err != nil {
				return
			}
		}
		bw.Flush()
	}))
	defer srv.Close()
	for _, reads := range []Reads{ReadEnds, ReadEveryEvent} {
		start := time.Now()
		_, err := Complete(context.Background(), srv.URL, Request{Endpoint: "/completion", MaxTokens: 16, Reads: reads})
		if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "max_tokens 16") {
			t.Errorf("reads %s: err = %v", reads, err)
		}
		t.Logf("reads %s: ended after %s: %v", reads, time.Since(start), err)
	}
	if l := StreamLimit(16); l != 32<<20+16<<10 {
		t.Errorf("StreamLimit(16) = %d", l)
	}
	if StreamLimit(1_000_000) != MaxStreamBytes {
		t.Error("the stream limit is not capped")
	}
}

// A reply's top-level fields are kept from event to event, each the last
// value an event gave it: an engine whose every event names a new field
// (here 1 MiB each) would make every event cost its whole size. What they
// keep is bounded, and passing the bound says which.
func TestReplyFieldsBounded(t *testing.T) {
	value := []byte(`"` + strings.Repeat("v", 1<<20) + "\"}\n\n")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for i := 0; i < MaxFinalBytes>>20+8; i++ {
			fmt.Fprintf(w, `data: {"content":"a","tokens":[7],"field%d":`, i)
			if _, err := w.Write(value); err != nil {
				return
			}
		}
		io.WriteString(w, "data: {\"content\":\"\",\"stop\":true}\n\n")
	}))
	defer srv.Close()
	for _, reads := range []Reads{ReadEnds, ReadEveryEvent} {
		var err error
		got := allocated(func() {
			_, err = Complete(context.Background(), srv.URL, Request{Endpoint: "/completion", MaxTokens: 100_000, Reads: reads})
		})
		if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "top-level fields") || !strings.Contains(err.Error(), "32 MiB") {
			t.Errorf("reads %s: err = %v", reads, err)
		}
		t.Logf("reads %s: allocated %d MB: %v", reads, got>>20, err)
		if got > 3*MaxFinalBytes {
			t.Errorf("reads %s: reading allocated %d MB", reads, got>>20)
		}
	}
}

// rawServer answers every connection with what reply writes.
func rawServer(t *testing.T, reply func(w io.Writer)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				go io.Copy(io.Discard, c)
				reply(c)
			}()
		}
	}()
	return "http://" + ln.Addr().String()
}

// 500 MB of reply headers took 600 MB (http.ReadResponse has no limit),
// and a reply whose header was one 300 MB line failed the run with an
// error that quoted the whole line. Headers are bounded for the measured
// stream and for every other request, and errors quote engine text
// shortly.
func TestReplyHeadersBounded(t *testing.T) {
	for _, tt := range []struct{ name, head string }{
		{"many headers", "HTTP/1.1 200 OK\r\n"},
		{"one long status line", "HTTP/1.1 200 "},
		{"one long header line", "HTTP/1.1 200 OK\r\nX-Flood: "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			url := rawServer(t, func(w io.Writer) {
				io.WriteString(w, tt.head)
				if tt.name == "many headers" {
					io.Copy(w, &lines{left: 64 << 20})
					return
				}
				io.Copy(w, &repeated{n: 64 << 20, c: 'a'})
			})
			var err error
			got := allocated(func() { _, err = Complete(context.Background(), url, Request{Endpoint: "/completion", MaxTokens: 8}) })
			if err == nil || len(err.Error()) > 1024 {
				t.Errorf("err (%d bytes) = %.300v", len(fmt.Sprint(err)), err)
			}
			if got > 16<<20 {
				t.Errorf("reading the headers allocated %d MB", got>>20)
			}
			_, err = Scrape(context.Background(), url, "/metrics")
			if err == nil || len(err.Error()) > 1024 {
				t.Errorf("scrape: err (%d bytes) = %.300v", len(fmt.Sprint(err)), err)
			}
			_, err = Props(context.Background(), url)
			if err == nil || len(err.Error()) > 1024 {
				t.Errorf("props: err (%d bytes) = %.300v", len(fmt.Sprint(err)), err)
			}
		})
	}
}

// A metrics page past its bound is an error, not a page cut short that
// parses.
func TestMetricsPageBounded(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		comment := "# " + strings.Repeat("x", 1021) + "\n"
		for i := 0; i < MaxMetricsBytes/1024+1000; i++ {
			io.WriteString(w, comment)
		}
	}))
	defer srv.Close()
	_, err := Scrape(context.Background(), srv.URL, "/metrics")
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("err = %v", err)
	}
	// GET /props likewise.
	if _, err := Props(context.Background(), srv.URL); !errors.Is(err, ErrTooLarge) {
		t.Errorf("props: err = %v", err)
	}
}

// A metrics page within its byte bound but of more lines than are parsed
// (three million one-sample families took 3.7 GB to parse) is an error
// too; a page at the bound parses.
func TestMetricsPageLinesBounded(t *testing.T) {
	lines := MaxMetricsLines + 1
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for i := range lines {
			fmt.Fprintf(w, "m%d 1\n", i)
		}
	}))
	defer srv.Close()
	if _, err := Scrape(context.Background(), srv.URL, "/metrics"); !errors.Is(err, ErrTooLarge) {
		t.Errorf("%d lines: err = %v", lines, err)
	}
	lines = MaxMetricsLines
	if m, err := Scrape(context.Background(), srv.URL, "/metrics"); err != nil || len(m) != lines {
		t.Errorf("%d lines: %d families, err = %v", lines, len(m), err)
	}
}

// An error event, an HTTP error body and a malformed event are quoted to
// at most MaxQuotedBytes of engine text.
func TestEngineTextQuotedShortly(t *testing.T) {
	big := strings.Repeat("x", 1<<20)
	for _, body := range []string{
		"error: " + big + "\n\n",
		"data: {\"content\": \"" + big + "\n\n",
		"data: {\"error\": \"" + big + "\"}\n\n",
	} {
		_, err := Complete(context.Background(), serveStream(t, []byte(body)).URL, Request{Endpoint: "/completion", MaxTokens: 8})
		if err == nil || len(err.Error()) > 4*MaxQuotedBytes || !strings.Contains(err.Error(), "more bytes)") {
			t.Errorf("err (%d bytes) = %.300v", len(fmt.Sprint(err)), err)
		}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.Error(w, big, 500) }))
	defer srv.Close()
	if _, err := Complete(context.Background(), srv.URL, Request{Endpoint: "/completion", MaxTokens: 8}); err == nil || len(err.Error()) > 4*MaxQuotedBytes {
		t.Errorf("HTTP error: %.300v", err)
	}
	if _, _, err := Replay(context.Background(), srv.URL, Request{Endpoint: "/completion", MaxTokens: 8}); err == nil || len(err.Error()) > 4*MaxQuotedBytes {
		t.Errorf("replay HTTP error: %.300v", err)
	}
}

// An 800 MB --version output took 2.9 GB: a probe keeps MaxVersionBytes
// of it and says the rest was not read.
func TestVersionOutputBounded(t *testing.T) {
	script := filepath.Join(t.TempDir(), "flood")
	if err := execfile.Write(script, []byte("#!/bin/sh\nyes version-flood | head -c 100000000\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	var version string
	var problems []string
	got := allocated(func() {
		id := Identify(context.Background(), script, os.Environ(), "")
		version, problems = id.Version, id.Problems
	})
	if len(version) > 2000 || !strings.HasPrefix(version, "version-flood") {
		t.Errorf("version %.100q (%d bytes)", version, len(version))
	}
	if !strings.Contains(strings.Join(problems, ";"), "more than 64 KiB") {
		t.Errorf("problems %q", problems)
	}
	if got > 8<<20 {
		t.Errorf("the probe allocated %d MB", got>>20)
	}
	v, err := VersionOf(context.Background(), []string{script}, nil)
	if err != nil || len(v) > 500 {
		t.Errorf("VersionOf: %d bytes, %v", len(v), err)
	}
}

// Chunk trailers come after the body, where the body's own bound does not
// see them: they are bounded too (by net/http, and by the connection's
// bound), and the run ends with an error.
func TestChunkTrailersBounded(t *testing.T) {
	url := rawServer(t, func(w io.Writer) {
		io.WriteString(w, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTrailer: X-Flood\r\nContent-Type: text/event-stream\r\n\r\n")
		ev := `data: {"content":"a","tokens":[1],"stop":true}` + "\n\n"
		fmt.Fprintf(w, "%x\r\n%s\r\n0\r\nX-Flood: ", len(ev), ev)
		io.Copy(w, &repeated{n: 200 << 20, c: 'a', tail: "\r\n\r\n"})
	})
	var err error
	got := allocated(func() { _, err = Complete(context.Background(), url, Request{Endpoint: "/completion", MaxTokens: 8}) })
	if err == nil || len(err.Error()) > 1024 {
		t.Errorf("err = %.300v", err)
	}
	if got > 64<<20 {
		t.Errorf("reading allocated %d MB", got>>20)
	}
}

// A --version that floods without end (exec yes) was read and discarded
// for the whole version timeout: past the bound it is killed at once.
func TestVersionFloodKilledAtBound(t *testing.T) {
	script := filepath.Join(t.TempDir(), "flood")
	if err := execfile.Write(script, []byte("#!/bin/sh\nexec yes version-flood\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	id := Identify(context.Background(), script, os.Environ(), "")
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the probe took %s", d)
	}
	if !strings.Contains(strings.Join(id.Problems, ";"), "more than 64 KiB") || !strings.HasPrefix(id.Version, "version-flood") {
		t.Errorf("version %.60q, problems %q", id.Version, id.Problems)
	}
}

// A probe that takes long says what is being waited for.
func TestSlowProbeSaysWhat(t *testing.T) {
	var b strings.Builder
	old := probeNotice
	probeNotice = &b
	defer func() { probeNotice = old }()
	res, err := probe{argv: []string{"sleep", "7"}, timeout: 6 * time.Second}.run(context.Background())
	if !errors.Is(err, errProbeTimeout) || !strings.Contains(b.String(), "waiting for sleep 7 (pid ") {
		t.Errorf("%v %+v, notice %q", err, res, b.String())
	}
}

// Token ids were kept without a cap (a flood of ids in a few events):
// past max_tokens plus idsMargin the run fails saying so.
func TestTokenIDsCapped(t *testing.T) {
	ids := strings.TrimSuffix(strings.Repeat("7,", 200000), ",")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: {\"content\":\"a\",\"tokens\":[%s],\"stop\":true}\n\n", ids)
	}))
	defer srv.Close()
	_, err := Complete(context.Background(), srv.URL, Request{Endpoint: "/completion", MaxTokens: 8})
	if err == nil || !strings.Contains(err.Error(), "more than 65544 token ids") {
		t.Errorf("err = %.300v", err)
	}
}

// A kept top-level field larger than maxDecodedField is kept as its raw
// bytes, not decoded (a 15 MiB array took some 20 times its bytes).
func TestLargeFinalFieldNotDecoded(t *testing.T) {
	rp := newReply()
	big := []byte("[" + strings.TrimSuffix(strings.Repeat("1,", 100000), ",") + "]")
	rp.final["x"], rp.final["y"] = &big, &[]byte{'1'}
	out := rp.finalReply()
	if _, ok := out["x"].(json.RawMessage); !ok || out["y"] != 1.0 {
		t.Errorf("x is %T, y %v", out["x"], out["y"])
	}
}
