package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/decodebench/decodebench/schema"
)

// dialect is one request format the client speaks: the fields of a request
// body, and how a streamed event and a non-streamed reply are read.
type dialect interface {
	// fields adds the dialect's fields to a body; a body that is not
	// streamed is a token replay's.
	fields(m map[string]any, req Request, stream bool)
	// event reads the generated text, reasoning text, token ids and the
	// stop flag of one streamed JSON event (an object) into p.
	event(obj jsonValue, p *eventParts)
	// replayIDs reads the text and token ids of a non-streamed reply, and
	// refuses ids that do not cover every generated token.
	replayIDs(body []byte) (string, []int, error)
	// candidates asks a body for the top k candidates of every token.
	candidates(m map[string]any, k int)
}

// dialects are the endpoints the client speaks, by path.
var dialects = map[string]dialect{
	"/completion":          completion{},
	"/v1/completions":      completions{},
	"/v1/chat/completions": chat{},
}

func dialectOf(endpoint string) (dialect, error) {
	if d, ok := dialects[endpoint]; ok {
		return d, nil
	}
	return nil, fmt.Errorf("unsupported endpoint %q", endpoint)
}

// completion is llama-server's native /completion.
type completion struct{}

func (completion) fields(m map[string]any, req Request, _ bool) {
	m["prompt"] = req.Prompt
	m["n_predict"] = req.MaxTokens
	m["ignore_eos"] = req.IgnoreEOS
	m["return_tokens"] = true
	noPromptCache(m, req)
}

// event reads the ids in tokens, but not of a prompt_progress event
// (return_progress, never asked for), whose tokens are [0]: ids of
// nothing generated (testdata completion-stream-progress.sse).
func (completion) event(obj jsonValue, p *eventParts) {
	var content, tokens, stop jsonValue
	progress := false
	for k, v := range obj.members {
		switch {
		case k.is("content"):
			content = v
		case k.is("tokens"):
			tokens = v
		case k.is("stop"):
			stop = v
		case k.is("prompt_progress"):
			progress = true
		}
	}
	if content.isString() {
		p.text = content.appendString(p.text)
	}
	if progress {
		return
	}
	for v := range tokens.elements {
		if f, ok := v.number(); ok {
			if id, ok := tokenID(f); ok {
				p.ids = append(p.ids, id)
			}
		}
	}
	p.stop = string(stop) == "true"
}

// tokenID is a streamed id as the reply keeps it. No vocabulary has more
// than 2^31 tokens: a number outside int32 is no id, and is passed over
// as a value that is not a number is (the reply's ids are then
// incomplete, and a token replay is asked for them).
func tokenID(f float64) (int32, bool) {
	if f <= math.MinInt32-1 || f >= math.MaxInt32+1 {
		return 0, false
	}
	return int32(f), true
}

// replayIDs reads `tokens`, which a non-streamed reply fills with every
// generated token (16 of 16 where the stream named 12, testdata
// completion-replay.json); an engine without return_tokens leaves it out.
func (completion) replayIDs(body []byte) (string, []int, error) {
	var reply struct {
		Content         string `json:"content"`
		Tokens          []int  `json:"tokens"`
		TokensPredicted int    `json:"tokens_predicted"`
	}
	if err := json.Unmarshal(body, &reply); err != nil {
		return "", nil, fmt.Errorf("token replay: %w", err)
	}
	switch n := reply.TokensPredicted; {
	case len(reply.Tokens) == 0 && (n > 0 || reply.Content != ""):
		return reply.Content, nil, &ReplayGap{Tokens: n, why: "the engine's reply carries no tokens"}
	case n > 0 && len(reply.Tokens) != n:
		return reply.Content, nil, &ReplayGap{Named: len(reply.Tokens), Tokens: n,
			why: fmt.Sprintf("the reply's tokens name %d of %d generated tokens", len(reply.Tokens), n)}
	}
	return reply.Content, reply.Tokens, nil
}

func (completion) candidates(m map[string]any, k int) { m["n_probs"] = k }

// noPromptCache asks the engine to process the prompt afresh, so that
// TTFT means the same thing after warmups as on a cold server, when the
// request's prefix cache is to be disabled per request: llama-server takes
// cache_prompt on /completion and, as an extra field, on its
// OpenAI-compatible endpoints (its reply's timings.cache_n is then 0 on a
// second identical request, where it is the prompt's length without). An
// engine that cannot be told so gets a distinct prefix instead
// (schema.PrefixCacheDistinct, DistinctPrompt).
func noPromptCache(m map[string]any, req Request) {
	if req.PrefixCache == schema.PrefixCacheDisabled {
		m["cache_prompt"] = false
	}
}

// DistinctPrompt is prompt with a short prefix of its own
// (schema.DistinctPrefix, from the start's sequence number and the
// request's index within it), for engines whose prefix cache cannot be
// disabled per request: no two requests of a campaign share their first
// tokens, so none is served from the cache. The prefix changes the
// prompt; the record says so.
func DistinctPrompt(prompt string, seq, request int) string {
	return schema.DistinctPrefix(seq, request) + prompt
}

// completions is the OpenAI-style /v1/completions.
type completions struct{}

func (completions) fields(m map[string]any, req Request, stream bool) {
	m["prompt"] = req.Prompt
	openAIFields(m, req, stream, 1)
}

// chat is the OpenAI-style /v1/chat/completions; its events and replies
// read as completions' do.
type chat struct{ completions }

func (chat) fields(m map[string]any, req Request, stream bool) {
	m["messages"] = []map[string]string{{"role": "user", "content": req.Prompt}}
	openAIFields(m, req, stream, true)
}

func (completions) candidates(m map[string]any, k int) { m["logprobs"] = k }

func (chat) candidates(m map[string]any, k int) { m["logprobs"], m["top_logprobs"] = true, k }

// openAIFields adds what both OpenAI-style endpoints take; a replay asks
// for logprobs (Replay).
func openAIFields(m map[string]any, req Request, stream bool, logprobs any) {
	m["max_tokens"] = req.MaxTokens
	noPromptCache(m, req)
	if stream {
		m["stream_options"] = map[string]any{"include_usage": true}
	} else {
		m["logprobs"] = logprobs
	}
	if req.IgnoreEOS {
		m["ignore_eos"] = true // llama-server and vLLM extension
	}
}

func (completions) event(obj jsonValue, p *eventParts) {
	choices := lastMember(obj, "choices")
	for c := range choices.elements {
		var text, delta, finish jsonValue
		for k, v := range c.members {
			switch {
			case k.is("text"):
				text = v
			case k.is("delta"):
				delta = v
			case k.is("finish_reason"):
				finish = v
			}
		}
		if text.isString() {
			p.text = text.appendString(p.text)
		}
		var content, reasoning jsonValue
		for k, v := range delta.members {
			switch {
			case k.is("content"):
				content = v
			case k.is("reasoning_content"):
				reasoning = v
			}
		}
		if content.isString() {
			p.text = content.appendString(p.text)
		}
		if reasoning.isString() {
			p.reasoning = reasoning.appendString(p.reasoning)
		}
		// A quoted string longer than its quotes is not empty.
		if finish.isString() && len(finish) > 2 {
			p.stop = true
		}
	}
}

func (completions) replayIDs(body []byte) (string, []int, error) {
	var reply struct {
		Choices []struct {
			Text    string `json:"text"`
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
			Logprobs *struct {
				Content []struct {
					ID *int `json:"id"`
				} `json:"content"`
			} `json:"logprobs"`
		} `json:"choices"`
		Usage struct {
			CompletionTokens int `json:"completion_tokens"`
		} `json:"usage"`
	}
	if err := json.Unmarshal(body, &reply); err != nil {
		return "", nil, fmt.Errorf("token replay: %w", err)
	}
	if len(reply.Choices) == 0 {
		return "", nil, errors.New("token replay: no choices in the reply")
	}
	ch := reply.Choices[0]
	text := ch.Text + ch.Message.Content
	n := reply.Usage.CompletionTokens
	if ch.Logprobs == nil {
		return text, nil, &ReplayGap{Tokens: n, why: "the engine returned no logprobs"}
	}
	var ids []int
	for _, e := range ch.Logprobs.Content {
		if e.ID == nil {
			return text, nil, &ReplayGap{Tokens: n, why: "the engine's logprobs carry no token ids"}
		}
		ids = append(ids, *e.ID)
	}
	if n > 0 && len(ids) != n {
		return text, nil, &ReplayGap{Named: len(ids), Tokens: n, why: fmt.Sprintf("logprobs name %d of %d generated tokens", len(ids), n)}
	}
	return text, ids, nil
}
