package engine

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkFloodPeakHeap measures the most heap a measured request holds
// against a server that floods it within the bounds (bounds.go), one
// mode at a time, as a hostile engine would: peak-MiB is the largest
// live heap sampled every millisecond while the request runs (the
// collector at its default), stream-MiB what the server sent. A bound
// passed ends the request with an error; the heap until then counts.
//
//   - ids: token ids in a few events, far past max_tokens (capped at
//     max_tokens plus 65,536);
//   - field: every event repeats a 15 MiB top-level field (kept as its
//     raw bytes, two events' worth at most);
//   - text: one-byte events up to the stream's bound (the text is kept);
//   - exponent: events whose numbers are written in exponent form.
func BenchmarkFloodPeakHeap(b *testing.B) {
	const maxTokens = 8
	limit := StreamLimit(maxTokens)
	modes := map[string]func(w *bytes.Buffer){
		"ids": func(w *bytes.Buffer) {
			ids := strings.TrimSuffix(strings.Repeat("7,", 1<<20), ",")
			for range 4 {
				fmt.Fprintf(w, "data: {\"content\":\"a\",\"tokens\":[%s],\"stop\":false}\n\n", ids)
			}
		},
		"field": func(w *bytes.Buffer) {
			big := strings.TrimSuffix(strings.Repeat("1,", 15<<19), ",")
			for int64(w.Len()) < limit-int64(len(big))-100 {
				fmt.Fprintf(w, "data: {\"content\":\"a\",\"x\":[%s],\"stop\":false}\n\n", big)
			}
		},
		"text": func(w *bytes.Buffer) {
			for int64(w.Len()) < limit-64 {
				w.WriteString("data: {\"content\":\"a\",\"stop\":false}\n\n")
			}
		},
		"exponent": func(w *bytes.Buffer) {
			nums := strings.TrimSuffix(strings.Repeat("1e2,", 1<<20), ",")
			for int64(w.Len()) < limit-int64(len(nums))-100 {
				fmt.Fprintf(w, "data: {\"content\":\"a\",\"y\":[%s],\"stop\":false}\n\n", nums)
			}
		},
	}
	for _, name := range []string{"ids", "field", "text", "exponent"} {
		b.Run(name, func(b *testing.B) {
			var body bytes.Buffer
			modes[name](&body)
			body.WriteString("data: {\"content\":\"\",\"stop\":true}\n\n")
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				w.Write(body.Bytes())
			}))
			defer srv.Close()
			var peak atomic.Uint64
			for range b.N {
				runtime.GC()
				base := liveHeap()
				stop := make(chan struct{})
				done := make(chan struct{})
				go func() {
					defer close(done)
					t := time.NewTicker(time.Millisecond)
					defer t.Stop()
					for {
						if h := liveHeap(); h > base && h-base > peak.Load() {
							peak.Store(h - base)
						}
						select {
						case <-stop:
							return
						case <-t.C:
						}
					}
				}()
				Complete(context.Background(), srv.URL, Request{Endpoint: "/completion", Prompt: "x", MaxTokens: maxTokens})
				close(stop)
				<-done
			}
			b.ReportMetric(float64(peak.Load())/(1<<20), "peak-MiB")
			b.ReportMetric(float64(body.Len())/(1<<20), "stream-MiB")
		})
	}
}

// liveHeap is the heap's objects in bytes, read without stopping the
// world.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
