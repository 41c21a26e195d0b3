package engine

import "context"

// Which token ids a stream carries, measured on llama-server 0.7.0 (build
// 11669, Debian) on the synthetic target, prompt "Once upon a time",
// 16 tokens at temperature 0 (the replies are in testdata, see its
// README):
//
//   - /completion streamed with return_tokens names 12 of the 16 ids: an
//     event carries the id of its last token only, and a token that ends
//     inside a multi-byte character is held back into the next event
//     (tokens_predicted jumps by 2 or 3 there). The held-back bytes of a
//     character left incomplete reach the text as U+FFFD, so two outputs
//     with the same text can differ just where the ids are missing.
//   - Adding n_probs (1), post_sampling_probs, timings_per_token or
//     return_progress names no more ids: completion_probabilities has one
//     entry per event, the same 12; return_progress adds prompt-progress
//     events whose tokens are [0], ids of nothing generated (never asked
//     for). The final event's tokens are empty when streamed.
//   - /v1/completions streamed with logprobs 1 names the same 12;
//     /v1/chat/completions with logprobs true, 14 of its 16; neither
//     names any without logprobs, with logprobs 0 (completions) or
//     top_logprobs 0 (chat), and return_tokens is ignored there.
//   - Not streamed, /completion's tokens names all 16; the OpenAI
//     endpoints' logprobs drop the held-back tokens as their stream does.
//
// So no stream option carries every id where a token ends inside a
// character, and the client asks for none beyond /completion's
// return_tokens: logprobs (n_probs) make llama-server compute a softmax
// over the whole vocabulary, sorted, for every generated token, work
// inside the measured window that classic decode would not do. A run
// whose stream named every id needs no replay (Response.CompleteTokenIDs).

// Replay sends req once more without streaming and returns the generated
// text and every token id: the second, unmeasured request a token-level
// identity check needs where the stream left ids out (above).
// /completion answers with all ids in `tokens`; the OpenAI endpoints are
// asked for logprobs, whose entries carry ids on engines that give them
// (llama-server does, but drops the same held-back tokens, so there the
// ids come back incomplete and are refused with a *ReplayGap).
func Replay(ctx context.Context, baseURL string, req Request) (string, []int, error) {
	d, err := dialectOf(req.Endpoint)
	if err != nil {
		return "", nil, err
	}
	body, err := requestBody(d, req, false)
	if err != nil {
		return "", nil, err
	}
	b, err := postReply(ctx, baseURL, req, body, "token replay")
	if err != nil {
		return "", nil, err
	}
	return d.replayIDs(b)
}

// ReplayGap is a token replay whose reply does not name every generated
// token: no ids at all (an engine without return_tokens, without logprobs,
// or whose logprobs carry no ids), or only some (llama-server's OpenAI
// logprobs, which leave out the tokens held back inside a multi-byte
// character). It is the reply's form, not chance: the same engine answers
// the same output the same way again.
type ReplayGap struct {
	// Named is how many ids the reply named, Tokens how many tokens it
	// generated (0 where the reply does not say).
	Named, Tokens int
	why           string
}

func (e *ReplayGap) Error() string { return "token replay: " + e.why }
