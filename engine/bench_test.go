package engine

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// BenchmarkReadEvents measures the SSE parser's cost per streamed event on
// llama-server's real stream: the client's share of a measured request.
func BenchmarkReadEvents(b *testing.B) {
	data, err := os.ReadFile("testdata/completion-stream.sse")
	if err != nil {
		b.Fatal(err)
	}
	events := bytes.Count(data, []byte("\n\n"))
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ReadEvents(bytes.NewReader(data), time.Now, func(Event) error { return nil })
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*events), "ns/event")
}

// BenchmarkCompleteOverhead measures the whole client path (HTTP, SSE,
// JSON, timing) per token against a local server that streams 1000 token
// events as fast as it can: the most the client can add to a decode step.
func BenchmarkCompleteOverhead(b *testing.B) {
	var body bytes.Buffer
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&body, "data: {\"content\":\"ab\",\"tokens\":[%d],\"stop\":false}\n\n", i%700)
	}
	body.WriteString(`data: {"content":"","tokens":[],"stop":true,"tokens_predicted":1000,"timings":{"predicted_n":1000,"predicted_per_second":100}}` + "\n\n")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(body.Bytes())
	}))
	defer srv.Close()
	req := Request{Endpoint: "/completion", Prompt: "x", MaxTokens: 1000}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Complete(context.Background(), srv.URL, req); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*1000), "ns/token")
}

// BenchmarkStreamedToken measures what one token of a long reply costs
// the client, read either way: time, CPU, and bytes allocated (which,
// while a measured window holds the collector off, is what memory grows
// by), per one-token event of a 20,000-event reply.
func BenchmarkStreamedToken(b *testing.B) {
	const n = 20_000
	srv := newFloodServer(n, 0)
	defer srv.Close()
	for _, reads := range []Reads{ReadEnds, ReadEveryEvent} {
		b.Run("reads="+strings.ReplaceAll(reads.String(), " ", "-"), func(b *testing.B) {
			req := Request{Endpoint: "/completion", Prompt: "x", MaxTokens: n, Reads: reads}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			cpu := selfCPU()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := Complete(context.Background(), srv.URL, req); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			cpu = selfCPU() - cpu
			runtime.ReadMemStats(&after)
			tokens := float64(b.N * n)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/tokens, "ns/token")
			// The process's CPU, the server's included (the same before
			// and after a change of the client).
			b.ReportMetric(float64(cpu.Nanoseconds())/tokens, "cpu-ns/token")
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/tokens, "B/token")
		})
	}
}

// BenchmarkTakeEvent measures decoding one of llama-server's real token
// events into the reply: what a held reply longer than maxHeldBytes adds
// to decodebench's CPU inside the window, per event past the first
// maxHeldBytes.
func BenchmarkTakeEvent(b *testing.B) {
	data, err := os.ReadFile("testdata/completion-stream.sse")
	if err != nil {
		b.Fatal(err)
	}
	events := bytes.Split(bytes.TrimSpace(data), []byte("\n\n"))
	events = events[:len(events)-1] // the token events
	for i, ev := range events {
		events[i] = bytes.TrimPrefix(ev, []byte("data: "))
	}
	r, rp := &Response{}, newReply()
	b.ReportAllocs()
	cpu := selfCPU()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := r.take(completion{}, rp, "data", events[i%len(events)], time.Duration(i)); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64((selfCPU()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/event")
}
