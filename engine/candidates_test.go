package engine

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The real replies of llama-server with log-probabilities: entries per
// piece, held-back multi-byte tokens merged into the next entry, and no
// candidates in a speculative arm.
func TestParseCandidatesRealReplies(t *testing.T) {
	for _, tc := range []struct {
		file           string
		pieces, merged int
		candidates     int // entries with candidates
		wantErr        bool
	}{
		{file: "candidates-completion.json", pieces: 9, merged: 1, candidates: 9},
		{file: "candidates-completion-draft.json", pieces: 9, candidates: 0},
		{file: "candidates-completions.json", pieces: 4, merged: 1, candidates: 4},
		{file: "candidates-chat-draft.json", pieces: 6, candidates: 2},
		{file: "candidates-completions-none.json", wantErr: true},
	} {
		t.Run(tc.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			text, pieces, err := ParseCandidates(b)
			if tc.wantErr {
				if err == nil {
					t.Fatalf("no error for a reply without log-probabilities (%d pieces)", len(pieces))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			merged, with := 0, 0
			for _, p := range pieces {
				if p.Merged {
					merged++
				}
				if len(p.Candidates) > 0 {
					with++
					if p.Candidates[0].ID != p.ID {
						t.Errorf("greedy piece %d: top candidate %d", p.ID, p.Candidates[0].ID)
					}
					for i := 1; i < len(p.Candidates); i++ {
						if p.Candidates[i].Logprob > p.Candidates[i-1].Logprob {
							t.Errorf("piece %d: candidates out of order", p.ID)
						}
					}
				}
			}
			if len(pieces) != tc.pieces || merged != tc.merged || with != tc.candidates {
				t.Errorf("%d pieces (%d merged, %d with candidates), want %d (%d, %d)", len(pieces), merged, with, tc.pieces, tc.merged, tc.candidates)
			}
			if text == "" {
				t.Error("no text")
			}
		})
	}
}

// Candidates asks each endpoint for its top k in that endpoint's own
// words, serves the real reply back as parsed pieces, and quotes an
// engine's error reply only shortly.
func TestCandidatesRequest(t *testing.T) {
	for _, tc := range []struct{ endpoint, file, want string }{
		{"/completion", "candidates-completion.json", `"n_probs":5`},
		{"/v1/completions", "candidates-completions.json", `"logprobs":5`},
		{"/v1/chat/completions", "candidates-chat-draft.json", `"top_logprobs":5`},
	} {
		t.Run(tc.endpoint, func(t *testing.T) {
			reply, err := os.ReadFile(filepath.Join("testdata", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			var got string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				got = string(b)
				w.Write(reply)
			}))
			defer srv.Close()
			_, pieces, err := Candidates(context.Background(), srv.URL, Request{Endpoint: tc.endpoint, Prompt: "p", MaxTokens: 4}, 5)
			if err != nil || len(pieces) == 0 || !strings.Contains(got, tc.want) || strings.Contains(got, `"stream":true`) {
				t.Errorf("pieces %d, err %v; body %s lacks %s or streams", len(pieces), err, got, tc.want)
			}
		})
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
		w.Write([]byte(strings.Repeat("x", 1<<20)))
	}))
	defer srv.Close()
	_, _, err := Candidates(context.Background(), srv.URL, Request{Endpoint: "/completion", Prompt: "p", MaxTokens: 4}, 5)
	if err == nil || len(err.Error()) > 4*MaxQuotedBytes {
		t.Errorf("an error reply of 1 MiB quoted in %d bytes", len(fmt.Sprint(err)))
	}
}
