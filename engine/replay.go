package engine

import "context"

// Replay sends req once more without streaming and returns the generated
// text and every token id. llama-server's stream leaves out the ids of
// tokens that end inside a multi-byte character (16 tokens arrive with 12
// ids), so a token-level identity check needs this second, unmeasured
// request. /completion answers with all ids in `tokens`; the OpenAI
// endpoints are asked for logprobs, whose entries carry ids on engines that
// give them (llama-server does, but drops the same held-back tokens, so
// there the ids come back incomplete and are refused).
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
