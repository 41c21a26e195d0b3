package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/decodebench/decodebench/schema"
)

// Candidates sends req once more, not streamed, asking the engine for the
// top k candidates of every generated token (llama-server's n_probs on
// /completion; logprobs and top_logprobs on the OpenAI endpoints), and
// returns the generated text and the reply's entries in order. It is a
// diagnosis request, never a measured one.
//
// llama-server returns one entry per piece of text it sends: tokens that
// end inside a multi-byte character are held back and merged into the next
// entry, whose candidates are the last token's only (Piece.Merged), and in a
// speculative arm it returns no candidates for the tokens it accepted from
// the draft (an entry with an empty candidate list).
func Candidates(ctx context.Context, baseURL string, req Request, k int) (string, []schema.Piece, error) {
	d, err := dialectOf(req.Endpoint)
	if err != nil {
		return "", nil, err
	}
	body, err := requestBody(d, req, false)
	if err != nil {
		return "", nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		return "", nil, err
	}
	d.candidates(m, k)
	if body, err = json.Marshal(m); err != nil {
		return "", nil, err
	}
	b, err := postReply(ctx, baseURL, req, body, "candidates request")
	if err != nil {
		return "", nil, err
	}
	return ParseCandidates(b)
}

// logprobEntry is one entry of a log-probability reply, in the form
// llama-server uses on all three endpoints (and OpenAI's, less the ids).
type logprobEntry struct {
	ID      *int    `json:"id"`
	Token   string  `json:"token"`
	Bytes   []int   `json:"bytes"`
	Logprob float64 `json:"logprob"`
	Top     []struct {
		ID      *int    `json:"id"`
		Token   string  `json:"token"`
		Bytes   []int   `json:"bytes"`
		Logprob float64 `json:"logprob"`
	} `json:"top_logprobs"`
}

// ParseCandidates reads a non-streamed reply with log-probabilities: the
// generated text and one Piece per entry. A reply without entries is an
// error: the engine cannot return log-probabilities (or did not).
func ParseCandidates(body []byte) (string, []schema.Piece, error) {
	var reply struct {
		Content string         `json:"content"`
		Probs   []logprobEntry `json:"completion_probabilities"`
		Choices []struct {
			Text    string `json:"text"`
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
			Logprobs *struct {
				Content []logprobEntry `json:"content"`
			} `json:"logprobs"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(body, &reply); err != nil {
		return "", nil, fmt.Errorf("candidates reply: %w", err)
	}
	text, entries := reply.Content, reply.Probs
	if len(reply.Choices) > 0 {
		ch := reply.Choices[0]
		text = ch.Text + ch.Message.Content
		if ch.Logprobs != nil {
			entries = ch.Logprobs.Content
		}
	}
	if len(entries) == 0 {
		return text, nil, errors.New("the engine returned no log-probabilities")
	}
	pieces := make([]schema.Piece, 0, len(entries))
	for _, e := range entries {
		p := schema.Piece{ID: idOr(e.ID), Text: e.Token, Bytes: byteLen(e.Bytes, e.Token)}
		for _, t := range e.Top {
			c := schema.Candidate{ID: idOr(t.ID), Text: t.Token, Bytes: byteLen(t.Bytes, t.Token), Logprob: t.Logprob}
			if c.ID == p.ID && c.ID >= 0 && c.Bytes < p.Bytes {
				p.Merged = true
			}
			p.Candidates = append(p.Candidates, c)
		}
		pieces = append(pieces, p)
	}
	return text, pieces, nil
}

func idOr(id *int) int {
	if id == nil {
		return -1
	}
	return *id
}

// byteLen is the length of an entry's bytes, or of its text when the
// engine gives no bytes.
func byteLen(b []int, text string) int {
	if b != nil {
		return len(b)
	}
	return len(text)
}
