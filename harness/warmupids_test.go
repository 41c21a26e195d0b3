package harness

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/schema"
)

// A start's last warmup goes whole only where a token replay could stand
// for the start's requests and two requests a start are left for the
// noise anatomy: not without exactness, for an arm compared with nothing,
// with one warmup and one measured request, with a distinct prefix or a
// random seed, or in an arm whose whole replies came back without every
// id.
func TestWholeWarmupOnlyWhereAReplayWouldBeAsked(t *testing.T) {
	req := engine.Request{Endpoint: "/completion", MaxTokens: 8}
	sched := func(s string) string {
		return strings.Replace(testScenario, "schedule: {rounds: 6}", "schedule: {"+s+"}", 1)
	}
	exact := "exactness: {compare: [b], against: a}\n"
	for _, tc := range []struct {
		name, src, arm string
		req            func(engine.Request) engine.Request
		want           bool
	}{
		{"one warmup, two measured", sched("rounds: 6, warmup: 1, requests: 2") + exact, "b", nil, true},
		{"the reference arm", sched("rounds: 6, warmup: 1, requests: 2") + exact, "a", nil, true},
		{"two warmups, one measured", sched("rounds: 6, warmup: 2") + exact, "a", nil, true},
		{"one warmup, one measured", sched("rounds: 6, warmup: 1") + exact, "b", nil, false},
		{"no warmup", sched("rounds: 6, warmup: 0, requests: 3") + exact, "b", nil, false},
		{"no exactness", sched("rounds: 6, warmup: 1, requests: 2"), "b", nil, false},
		{"an arm compared with nothing", strings.Replace(sched("rounds: 6, warmup: 1, requests: 2"), "  - name: b\n", "  - name: c\n    control: true\n  - name: b\n", 1) + exact, "c", nil, false},
		{"a distinct prefix", sched("rounds: 6, warmup: 1, requests: 2") + exact, "b",
			func(r engine.Request) engine.Request { r.PrefixCache = schema.PrefixCacheDistinct; return r }, false},
		{"a random seed", sched("rounds: 6, warmup: 1, requests: 2") + exact, "b",
			func(r engine.Request) engine.Request { r.Temperature, r.Seed = 0.8, -1; return r }, false},
	} {
		r := req
		if tc.req != nil {
			r = tc.req(r)
		}
		if got := testCampaign(t, tc.src).wholeWarmup(tc.arm, r); got != tc.want {
			t.Errorf("%s: whole warmup %v, want %v", tc.name, got, tc.want)
		}
	}
	c := testCampaign(t, sched("rounds: 6, warmup: 1, requests: 2")+exact)
	c.noteGap("b", "text", &engine.ReplayGap{})
	if c.wholeWarmup("b", req) || !c.wholeWarmup("a", req) {
		t.Error("an arm whose whole reply came back without every id still warms up whole, or the other arm does not")
	}
}

// On llama-server's real replies (engine/testdata): the whole warmup
// names all 16 ids where the stream names 12, and the run takes them
// without a replay when its measured text is the warmup's, for each of
// its measured requests of that text; a measured text the warmup did not
// generate is replayed as before. An OpenAI endpoint's whole warmup that
// names 14 of 16 is noted as a replay's gap, and the run of the same text
// is not replayed.
func TestWholeWarmupGivesTheIDs(t *testing.T) {
	c := testCampaign(t, strings.Replace(testScenario, "schedule: {rounds: 6}", "schedule: {rounds: 6, warmup: 1, requests: 2}", 1)+
		"exactness: {compare: [b], against: a}\n")
	req := engine.Request{Endpoint: "/completion", MaxTokens: 16}
	url, replays := realEngine(t, "completion-stream.sse", "completion-replay.json")
	sr, warm, err := c.warmWhole(context.Background(), Slot{Arm: "b"}, url, req)
	if err != nil || !sr.Whole || sr.Kind != schema.RequestWarmup || sr.Tokens != 16 || len(warm.ids) != 16 || sr.Metrics[schema.WallS] <= 0 {
		t.Fatalf("whole warmup: %+v, ids %d, err %v", sr, len(warm.ids), err)
	}
	if _, ok := sr.Metrics[schema.DecodeTokS]; ok {
		t.Errorf("a whole warmup has a streamed figure: %v", sr.Metrics)
	}
	resp, err := engine.Complete(context.Background(), url, req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.CompleteTokenIDs() {
		t.Fatal("the fixture's stream names every id; the test needs one that does not")
	}
	run := schema.Run{Arm: "b", Requests: []schema.ServedRequest{sr, {Kind: schema.RequestMeasured}, {Kind: schema.RequestMeasured, Output: resp.Text}}}
	before := replays.Load()
	c.tokenIDs(context.Background(), Slot{Arm: "b"}, url, func(string, ...any) {}, req, resp, warm, &run)
	if replays.Load() != before || len(run.TokenIDs) != 16 || len(run.Requests[2].TokenIDs) != 16 || run.Phases != nil || !strings.Contains(run.TokenNote, "last warmup") {
		t.Errorf("ids from the warmup: %d replays, ids %d and %d, phases %+v, note %q", replays.Load()-before, len(run.TokenIDs), len(run.Requests[2].TokenIDs), run.Phases, run.TokenNote)
	}
	other := schema.Run{Arm: "b"}
	c.tokenIDs(context.Background(), Slot{Arm: "b"}, url, func(string, ...any) {}, req, resp, warmIDs{text: resp.Text + "!", ids: warm.ids}, &other)
	if replays.Load() != before+1 || !strings.Contains(other.TokenNote, "non-streamed replay") || other.Phases.ReplayS <= 0 {
		t.Errorf("a warmup of another text: %d replays, note %q", replays.Load()-before, other.TokenNote)
	}

	chat := engine.Request{Endpoint: "/v1/chat/completions", MaxTokens: 16}
	curl, creplays := realEngine(t, "chat-stream.sse", "chat-logprobs.json")
	sr, warm, err = c.warmWhole(context.Background(), Slot{Arm: "a"}, curl, chat)
	if err != nil || warm.ids != nil || sr.Tokens != 16 || !sr.Whole {
		t.Fatalf("chat whole warmup: %+v, ids %v, err %v", sr, warm.ids, err)
	}
	cresp, err := engine.Complete(context.Background(), curl, chat)
	if err != nil {
		t.Fatal(err)
	}
	crun := schema.Run{Arm: "a"}
	c.tokenIDs(context.Background(), Slot{Arm: "a"}, curl, func(string, ...any) {}, chat, cresp, warm, &crun)
	if creplays.Load() != 1 || !strings.HasSuffix(crun.TokenNote, "without every token id: logprobs name 14 of 16 generated tokens") {
		t.Errorf("chat after a whole warmup without every id: %d whole replies, note %q", creplays.Load(), crun.TokenNote)
	}
	if c.wholeWarmup("a", chat) {
		t.Error("the arm still warms up whole after its whole reply lacked ids")
	}
}

// A whole warmup that fails otherwise than by a missing id (here the
// engine answers the non-streamed request with HTTP 500) does not fail
// the run: the arm's warmups stream from then on, and its runs are
// replayed after the window as before.
func TestWholeWarmupFailureFallsBackToTheReplay(t *testing.T) {
	c := testCampaign(t, strings.Replace(testScenario, "schedule: {rounds: 6}", "schedule: {rounds: 6, warmup: 1, requests: 2}", 1)+
		"exactness: {compare: [b], against: a}\n")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "boom", http.StatusInternalServerError)
	}))
	t.Cleanup(srv.Close)
	req := engine.Request{Endpoint: "/completion", MaxTokens: 16}
	if !c.wholeWarmup("b", req) {
		t.Fatal("no whole warmup to begin with")
	}
	sr, warm, err := c.warmWhole(context.Background(), Slot{Seq: 3, Arm: "b"}, srv.URL, req)
	if err != nil || warm.ids != nil || !sr.Whole {
		t.Fatalf("a failed whole warmup: %+v, ids %v, err %v", sr, warm.ids, err)
	}
	if c.wholeWarmup("b", req) || !c.wholeWarmup("a", req) {
		t.Error("after the failure the arm still warms up whole, or the other arm no longer does")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := c.warmWhole(ctx, Slot{Seq: 4, Arm: "a"}, srv.URL, req); err == nil {
		t.Error("an interrupted whole warmup is no error")
	}
}
