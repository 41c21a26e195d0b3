package engine

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
)

// serveFile answers every request with a reply of the real llama-server,
// verbatim.
func serveFile(t *testing.T, file string) string {
	t.Helper()
	body, err := os.ReadFile("testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(file, ".sse") {
			w.Header().Set("Content-Type", "text/event-stream")
		}
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// No option of llama-server's streams names the id of a token held back
// inside a multi-byte character (engine/replay.go says what was asked):
// the client's reading of each real stream leaves it without every id, so
// the identity check needs the replay; a stream whose tokens all end on a
// character boundary names every id and needs none.
func TestStreamsNameEveryIDOnlyWithoutHeldBackTokens(t *testing.T) {
	for _, tc := range []struct {
		file, endpoint string
		tokens, ids    int
	}{
		{"completion-stream.sse", "/completion", 16, 12},
		{"completion-stream-nprobs.sse", "/completion", 16, 12},
		{"completion-stream-progress.sse", "/completion", 16, 12}, // not the progress events' [0]
		{"completions-stream-logprobs.sse", "/v1/completions", 16, 0},
		{"chat-stream.sse", "/v1/chat/completions", 16, 0},
		{"chat-stream-logprobs.sse", "/v1/chat/completions", 16, 0},
		{"completion-stream-complete.sse", "/completion", 5, 5},
	} {
		resp, err := Complete(context.Background(), serveFile(t, tc.file), Request{Endpoint: tc.endpoint, MaxTokens: tc.tokens})
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if resp.Tokens != tc.tokens || len(resp.TokenIDs) != tc.ids || resp.CompleteTokenIDs() != (tc.ids == tc.tokens) {
			t.Errorf("%s: %d tokens, ids %v (complete %v)", tc.file, resp.Tokens, resp.TokenIDs, resp.CompleteTokenIDs())
		}
		if slices.Contains(resp.TokenIDs, 0) {
			t.Errorf("%s: id 0 read from an event that generated nothing: %v", tc.file, resp.TokenIDs)
		}
	}
}

// A replay of /completion names all 16 ids, the 12 the stream named among
// them, and generates the measured text; llama-server's OpenAI logprobs
// name 14 of 16, a ReplayGap, as does a reply without ids.
func TestReplayOnRealReplies(t *testing.T) {
	stream, err := Complete(context.Background(), serveFile(t, "completion-stream.sse"), Request{Endpoint: "/completion", MaxTokens: 16})
	if err != nil {
		t.Fatal(err)
	}
	text, ids, err := Replay(context.Background(), serveFile(t, "completion-replay.json"), Request{Endpoint: "/completion", MaxTokens: 16})
	if err != nil || text != stream.Text || len(ids) != 16 {
		t.Fatalf("replay: %q %v %v; the stream said %q", text, ids, err, stream.Text)
	}
	at := 0
	for _, id := range stream.IDs() {
		i := slices.Index(ids[at:], id)
		if i < 0 {
			t.Fatalf("streamed ids %v are not in order in the replay's %v", stream.TokenIDs, ids)
		}
		at += i + 1
	}
	var gap *ReplayGap
	_, _, err = Replay(context.Background(), serveFile(t, "chat-logprobs.json"), Request{Endpoint: "/v1/chat/completions", MaxTokens: 16})
	if !errors.As(err, &gap) || gap.Named != 14 || gap.Tokens != 16 || err.Error() != "token replay: logprobs name 14 of 16 generated tokens" {
		t.Errorf("chat replay: %v (%+v)", err, gap)
	}
	for _, body := range []string{`{"content":"ab","tokens_predicted":2}`, `{"content":"ab","tokens":[5],"tokens_predicted":2}`} {
		if _, ids, err := (completion{}).replayIDs([]byte(body)); !errors.As(err, &gap) || ids != nil {
			t.Errorf("%s: ids %v, err %v", body, ids, err)
		}
	}
}
