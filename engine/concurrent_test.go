package engine

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// barrierServer serves llama-server's real stream (testdata) to n
// requests only once all n have arrived: a client that sent them one
// after another would wait on the first reply for ever (its context's
// timeout ends it). Replies are paced so that they overlap.
func barrierServer(t *testing.T, n int) *httptest.Server {
	t.Helper()
	data, err := os.ReadFile("testdata/completion-stream.sse")
	if err != nil {
		t.Fatal(err)
	}
	events := strings.Split(strings.TrimSpace(string(data)), "\n\n")
	var mu sync.Mutex
	arrived := 0
	all := make(chan struct{})
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		if arrived++; arrived == n {
			close(all)
		}
		mu.Unlock()
		select {
		case <-all:
		case <-time.After(3 * time.Second):
			http.Error(w, "the other requests never came", http.StatusGatewayTimeout)
			return
		}
		fl := w.(http.Flusher)
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		for _, ev := range events {
			fmt.Fprintf(w, "%s\n\n", ev)
			fl.Flush()
			time.Sleep(2 * time.Millisecond)
		}
	}))
}

// CompleteAll releases its streams together and measures each: every
// stream is sent before any reply comes, each has its own times since
// the release, and all of them decoded at once.
func TestCompleteAllReleasesTogether(t *testing.T) {
	const n = 4
	srv := barrierServer(t, n)
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req := Request{Endpoint: "/completion", Prompt: "x", MaxTokens: 256}
	cc, err := CompleteAll(ctx, srv.URL, req, n)
	if err != nil {
		t.Fatal(err)
	}
	if len(cc.Streams) != n {
		t.Fatalf("%d streams, want %d", len(cc.Streams), n)
	}
	for i, r := range cc.Streams {
		if r.Tokens == 0 || r.Text == "" || r.LastTokenAt <= r.FirstTokenAt || cc.Since(r.Start) < 0 {
			t.Errorf("stream %d: tokens %d, text %q, first %v last %v, sent %v after the release", i+1, r.Tokens, r.Text, r.FirstTokenAt, r.LastTokenAt, cc.Since(r.Start))
		}
		if r.Text != cc.Streams[0].Text {
			t.Errorf("stream %d generated other text", i+1)
		}
	}
	if l := cc.Longest(); l == nil || cc.Since(l.Start)+l.Wall < cc.Since(cc.Streams[0].Start)+cc.Streams[0].Wall {
		t.Errorf("Longest is not the stream that ended last")
	}
	// One stream too many for the barrier: the first n wait for a
	// request that never comes, and the group fails, naming a stream.
	srv2 := barrierServer(t, n+1)
	defer srv2.Close()
	if _, err := CompleteAll(ctx, srv2.URL, req, n); err == nil || !strings.Contains(err.Error(), "stream 1 of 4") || !strings.Contains(err.Error(), "never came") {
		t.Errorf("a group whose replies never come: %v", err)
	}
}

// A failing stream fails the group, named.
func TestCompleteAllStreamFails(t *testing.T) {
	var mu sync.Mutex
	k := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		k++
		mine := k
		mu.Unlock()
		if mine == 2 {
			http.Error(w, "no free slot", http.StatusServiceUnavailable)
			return
		}
		data, _ := os.ReadFile("testdata/completion-stream.sse")
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(data)
	}))
	defer srv.Close()
	_, err := CompleteAll(context.Background(), srv.URL, Request{Endpoint: "/completion", Prompt: "x", MaxTokens: 256}, 3)
	if err == nil || !strings.Contains(err.Error(), "of 3") || !strings.Contains(err.Error(), "no free slot") {
		t.Fatalf("got %v", err)
	}
}
