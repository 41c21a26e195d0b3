package engine

import (
	"bytes"
	"context"
	"io"
	"net"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// FuzzReadEvents: the SSE parser never panics, and no event carries more
// data than the input held.
func FuzzReadEvents(f *testing.F) {
	if b, err := os.ReadFile("testdata/completion-stream.sse"); err == nil {
		f.Add(b)
	}
	f.Add([]byte("data: [DONE]\n\n"))
	f.Add([]byte("error: {\"x\":1}\n\ndata: a\ndata: b\n\n:comment\n"))
	f.Add([]byte("data: {\"content\":\"\\u00e9\"}\r\n\r\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		total := 0
		ReadEvents(bytes.NewReader(in), time.Now, func(e Event) error {
			total += len(e.Data)
			if e.Field != "data" && e.Field != "error" {
				t.Fatalf("field %q", e.Field)
			}
			return nil
		})
		if total > len(in) {
			t.Fatalf("events hold %d bytes from %d of input", total, len(in))
		}
	})
}

// FuzzMetrics: parsing Prometheus text and selecting a series never panics,
// and a selector with labels never sums more series than one without.
func FuzzMetrics(f *testing.F) {
	for _, p := range []string{"testdata/llama-server-metrics-classic.txt", "testdata/llama-server-metrics-draft.txt"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b, "llamacpp:spec_decode_num_accepted_tokens_per_pos_total", `position="1"`)
		}
	}
	f.Add([]byte("# TYPE a counter\na{b=\"c\"} 1\na 2\n"), "a", `b="c"`)
	f.Fuzz(func(t *testing.T, text []byte, name, labels string) {
		m, err := ParseMetrics(bytes.NewReader(text))
		if err != nil {
			return
		}
		sel, err := scenarios.ParseMetricSelector(name + "{" + labels + "}")
		if err != nil {
			return
		}
		m.Value(sel)
		m.Value(scenarios.MetricSelector{Name: sel.Name})
	})
}

// FuzzLogCounter: log-line extraction never panics on any regex with one
// group and any log text; a non-numeric capture is an error, not a value.
func FuzzLogCounter(f *testing.F) {
	if b, err := os.ReadFile("testdata/llama-server-draft.log"); err == nil {
		f.Add(`draft acceptance = [0-9.]+ \(\s*(\d+) accepted`, string(b))
	}
	f.Add(`rounds=(\d+)`, "DFlash diagnostics block_size=4 rounds=79 proposed_tokens=300\nwarm-up rounds=0\n")
	f.Add(`x=(\S+)`, "x=1e3 x=NaN x=abc")
	f.Fuzz(func(t *testing.T, expr, text string) {
		re, err := regexp.Compile(expr)
		if err != nil || re.NumSubexp() != 1 {
			return
		}
		sum, n, err := SumLogMatches(re, strings.Split(text, "\n"))
		if err == nil && n == 0 && sum != 0 {
			t.Fatalf("no matches but sum %v", sum)
		}
	})
}

// FuzzStream: whatever an engine answers to the measured request (status
// line, headers and event stream, as raw bytes), Complete never panics,
// quotes engine text only shortly in its errors, and returns no number
// that cannot be true: tokens within what max_tokens allows or counted
// from the stream, every timing finite and not negative.
func FuzzStream(f *testing.F) {
	head := "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n"
	if b, err := os.ReadFile("testdata/completion-stream.sse"); err == nil {
		f.Add([]byte(head + string(b)))
		f.Add([]byte(head + strings.Replace(string(b), `"predicted_n":16`, `"predicted_n":1e300`, 1)))
	}
	f.Add([]byte(head + "data: {\"content\":\"a\",\"tokens\":[1],\"stop\":true,\"timings\":{\"predicted_n\":-1}}\n\n"))
	f.Add([]byte("HTTP/1.1 500 " + strings.Repeat("x", 5000) + "\r\n\r\n"))
	f.Add([]byte("HTTP/1.1 200 OK\r\nX: " + strings.Repeat("y", 5000) + "\r\n\r\nerror: z\n\n"))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		f.Fatal(err)
	}
	defer ln.Close()
	url := "http://" + ln.Addr().String()
	f.Fuzz(func(t *testing.T, reply []byte) {
		// One connection, answered with reply, before this input ends.
		served := make(chan struct{})
		go func() {
			defer close(served)
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
			go io.Copy(io.Discard, c)
			c.Write(reply)
		}()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		resp, err := Complete(ctx, url, Request{Endpoint: "/completion", MaxTokens: 16})
		<-served
		if err != nil && len(err.Error()) > 8*MaxQuotedBytes {
			t.Fatalf("error of %d bytes: %.300s", len(err.Error()), err)
		}
		if err != nil || resp == nil {
			return
		}
		if resp.Tokens < 0 || (resp.Tokens > int(TokenLimit(16)) && resp.TokenSource != schema.TokensFromEvents && resp.TokenSource != "streamed token ids") {
			t.Fatalf("tokens %d from %s", resp.Tokens, resp.TokenSource)
		}
		for k, v := range resp.Timings {
			if _, bad := Impossible(k, v, false); bad {
				t.Fatalf("timing %s = %v", k, v)
			}
		}
	})
}
