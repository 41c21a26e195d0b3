package harness

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/schema"
)

// realEngine answers as the real llama-server did (engine/testdata): the
// streamed request with stream, a request that is not streamed (a token
// replay) with reply, counting the replays.
func realEngine(t *testing.T, stream, reply string) (url string, replays *atomic.Int32) {
	t.Helper()
	read := func(f string) []byte {
		b, err := os.ReadFile("../engine/testdata/" + f)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	sse, json := read(stream), read(reply)
	replays = &atomic.Int32{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := make([]byte, 1<<16)
		n, _ := r.Body.Read(body)
		if strings.Contains(string(body[:n]), `"stream":false`) {
			replays.Add(1)
			w.Write(json)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(sse)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, replays
}

// replayed measures the fixture's stream as arm's run would, then decides
// and makes the token replay; it returns the run and how many replays the
// engine served.
func replayed(t *testing.T, c *campaign, arm, stream, reply string, req engine.Request) (schema.Run, int) {
	t.Helper()
	url, replays := realEngine(t, stream, reply)
	resp, err := engine.Complete(context.Background(), url, req)
	if err != nil {
		t.Fatal(err)
	}
	run := schema.Run{Arm: arm}
	c.tokenIDs(context.Background(), Slot{Arm: arm}, url, func(string, ...any) {}, req, resp, warmIDs{}, &run)
	return run, int(replays.Load())
}

// A replay is made only for a run whose ids the identity check reads and
// its stream left out, on llama-server's real replies: a stream that named
// every id, a scenario without exactness, an arm compared with nothing,
// an empty output and a random seed ask nothing; /completion's replay
// names every id; an OpenAI replay that came back without every id is
// not asked again for the same output of the same arm.
func TestTokenReplayOnlyWhereTheIdentityCheckNeedsIt(t *testing.T) {
	completion := engine.Request{Endpoint: "/completion", MaxTokens: 16}
	chat := engine.Request{Endpoint: "/v1/chat/completions", MaxTokens: 16}
	exact := testCampaign(t, testScenario+"exactness: {compare: [b], against: a}\n")

	run, n := replayed(t, exact, "b", "completion-stream.sse", "completion-replay.json", completion)
	if n != 1 || len(run.TokenIDs) != 16 || !strings.Contains(run.TokenNote, "non-streamed replay") || run.Phases.ReplayS <= 0 {
		t.Errorf("ids left out of the stream: %d replays, ids %v, note %q, phases %+v", n, run.TokenIDs, run.TokenNote, run.Phases)
	}
	complete := engine.Request{Endpoint: "/completion", MaxTokens: 5}
	if run, n := replayed(t, exact, "b", "completion-stream-complete.sse", "completion-replay.json", complete); n != 0 || len(run.TokenIDs) != 5 || run.TokenNote != "" || run.Phases != nil {
		t.Errorf("every id streamed: %d replays, ids %v, note %q", n, run.TokenIDs, run.TokenNote)
	}
	plain := testCampaign(t, testScenario)
	if run, n := replayed(t, plain, "b", "completion-stream.sse", "completion-replay.json", completion); n != 0 || run.TokenIDs != nil || run.TokenNote != "" {
		t.Errorf("no exactness: %d replays, ids %v, note %q", n, run.TokenIDs, run.TokenNote)
	}
	three := testCampaign(t, strings.Replace(testScenario, "  - name: b\n", "  - name: c\n    control: true\n  - name: b\n", 1)+"exactness: {compare: [b], against: a}\n")
	if run, n := replayed(t, three, "c", "completion-stream.sse", "completion-replay.json", completion); n != 0 || !strings.Contains(run.TokenNote, "compares this arm's outputs with nothing") {
		t.Errorf("an arm not compared: %d replays, note %q", n, run.TokenNote)
	}
	random := completion
	random.Temperature, random.Seed = 1, -1
	if run, n := replayed(t, exact, "a", "completion-stream.sse", "completion-replay.json", random); n != 0 || !strings.Contains(run.TokenNote, "random seed") {
		t.Errorf("a random seed: %d replays, note %q", n, run.TokenNote)
	}
	stripping := testCampaign(t, testScenario+"exactness: {compare: [b], against: a, strip: [\"^.au\"]}\n")
	if run, n := replayed(t, stripping, "a", "completion-stream.sse", "completion-replay.json", completion); n != 0 || !strings.Contains(run.TokenNote, "strip pattern") {
		t.Errorf("a stripped output: %d replays, note %q", n, run.TokenNote)
	}

	run, n = replayed(t, exact, "a", "chat-stream.sse", "chat-logprobs.json", chat)
	if n != 1 || run.TokenIDs != nil || run.TokenNote != "token replay failed: token replay: logprobs name 14 of 16 generated tokens" {
		t.Errorf("chat, first run: %d replays, ids %v, note %q", n, run.TokenIDs, run.TokenNote)
	}
	run, n = replayed(t, exact, "a", "chat-stream.sse", "chat-logprobs.json", chat)
	if n != 0 || !strings.HasSuffix(run.TokenNote, "without every token id: logprobs name 14 of 16 generated tokens") {
		t.Errorf("chat, the same output again: %d replays, note %q", n, run.TokenNote)
	}
	if _, n := replayed(t, exact, "b", "chat-stream.sse", "chat-logprobs.json", chat); n != 1 {
		t.Errorf("chat, another arm: %d replays, want 1", n)
	}
}

// An empty output is an identity error whatever its tokens: no replay.
func TestNoTokenReplayOfAnEmptyOutput(t *testing.T) {
	c := testCampaign(t, testScenario+"exactness: {compare: [b], against: a}\n")
	resp := &engine.Response{Text: " \n", Tokens: 3, TokenIDs: []int32{7}}
	if got := c.replayChoice("a", engine.Request{}, resp); got != skipEmpty {
		t.Errorf("choice %d, want skipEmpty", got)
	}
}

// The replay stands for every measured request of the start that
// generated the same text, as for the first; one that generated other
// text gets no ids.
func TestTokenReplayIDsForEveryRequestOfTheText(t *testing.T) {
	c := testCampaign(t, testScenario+"exactness: {compare: [b], against: a}\n")
	req := engine.Request{Endpoint: "/completion", MaxTokens: 16}
	url, replays := realEngine(t, "completion-stream.sse", "completion-replay.json")
	resp, err := engine.Complete(context.Background(), url, req)
	if err != nil {
		t.Fatal(err)
	}
	run := schema.Run{Arm: "a", Requests: []schema.ServedRequest{{Kind: schema.RequestWarmup}, {Kind: schema.RequestMeasured},
		{Kind: schema.RequestMeasured, Output: resp.Text}, {Kind: schema.RequestMeasured, Output: resp.Text + "!"}}}
	c.tokenIDs(context.Background(), Slot{Arm: "a"}, url, func(string, ...any) {}, req, resp, warmIDs{}, &run)
	q := run.Requests
	if replays.Load() != 1 || len(run.TokenIDs) != 16 || len(q[2].TokenIDs) != 16 || q[0].TokenIDs != nil || q[1].TokenIDs != nil || q[3].TokenIDs != nil {
		t.Errorf("%d replays; ids: run %v, requests %+v", replays.Load(), run.TokenIDs, q)
	}
}
