package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

func metricsFixture(t *testing.T, name string) Metrics {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := ParseMetrics(f)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func sel(t *testing.T, s string) scenarios.MetricSelector {
	t.Helper()
	x, err := scenarios.ParseMetricSelector(s)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// The real llama-server /metrics text parses, and the spec_decode counters
// read 0 in a classic server and move in a speculative one.
func TestParseRealMetrics(t *testing.T) {
	classic := metricsFixture(t, "llama-server-metrics-classic.txt")
	draft := metricsFixture(t, "llama-server-metrics-draft.txt")
	tests := []struct {
		m        Metrics
		sel      string
		want     float64
		wantSeen bool
	}{
		{classic, "llamacpp:spec_decode_num_drafts_total", 0, true},
		{draft, "llamacpp:spec_decode_num_drafts_total", 165, true},
		{draft, "llamacpp:tokens_predicted_total", 384, true},
		{draft, `llamacpp:spec_decode_num_accepted_tokens_per_pos_total{position="1"}`, 69, true},
		// Without labels, every series of the metric is summed.
		{draft, "llamacpp:spec_decode_num_accepted_tokens_per_pos_total", 93 + 69 + 51, true},
		{draft, `llamacpp:spec_decode_num_accepted_tokens_per_pos_total{position="9"}`, 0, false},
		{classic, "llamacpp:predicted_tokens_seconds", 246.113, true},
		{classic, "vllm:num_requests_running", 0, false},
	}
	for _, tt := range tests {
		got, seen := tt.m.Value(sel(t, tt.sel))
		if got != tt.want || seen != tt.wantSeen {
			t.Errorf("Value(%s) = %v, %v; want %v, %v", tt.sel, got, seen, tt.want, tt.wantSeen)
		}
	}
}

func TestMetricCounterDelta(t *testing.T) {
	c, err := NewCounter(scenarios.CounterPolicy{Name: "drafts", Kind: schema.SourceMetric, Expr: "llamacpp:spec_decode_num_drafts_total"})
	if err != nil {
		t.Fatal(err)
	}
	before := metricsFixture(t, "llama-server-metrics-classic.txt")
	after := metricsFixture(t, "llama-server-metrics-draft.txt")
	r, err := c.Read(Observation{Before: before, After: after})
	if err != nil || r.Value != 165 {
		t.Errorf("delta = %v, %v; want 165", r.Value, err)
	}
	missing, _ := NewCounter(scenarios.CounterPolicy{Name: "x", Kind: schema.SourceMetric, Expr: "not_there"})
	r, err = missing.Read(Observation{Before: before, After: after})
	if err != nil || r.Value != 0 || !r.Absent || !strings.Contains(r.Note, "absent") {
		t.Errorf("absent metric: %+v, %v", r, err)
	}
}

func TestParseMetricsError(t *testing.T) {
	if _, err := ParseMetrics(strings.NewReader("# TYPE x counter\nx{a=\"b} 1\n")); err == nil {
		t.Error("malformed metrics parsed")
	}
}

func TestJSONPath(t *testing.T) {
	obj := map[string]any{
		"timings":  map[string]any{"draft_n": 12.0, "predicted_per_second": 150.5},
		"stop":     true,
		"str":      "7",
		"bad":      "x",
		"arr":      []any{1.0},
		"nullable": nil,
	}
	tests := []struct {
		path  string
		want  float64
		found bool
		err   bool
	}{
		{"timings.draft_n", 12, true, false},
		{"timings.draft_n_accepted", 0, false, false},
		{"timings.draft_n.deeper", 0, false, false},
		{"stop", 1, true, false},
		{"str", 7, true, false},
		{"bad", 0, true, true},
		{"arr", 0, true, true},
		{"nullable", 0, false, false},
		{"missing.path", 0, false, false},
	}
	for _, tt := range tests {
		v, found, err := JSONPath(obj, tt.path)
		if v != tt.want || found != tt.found || (err != nil) != tt.err {
			t.Errorf("JSONPath(%q) = %v, %v, %v", tt.path, v, found, err)
		}
	}
}

// A log counter reads llama-server's real "draft acceptance" lines.
func TestLogCounterOnRealLog(t *testing.T) {
	b, err := os.ReadFile("testdata/llama-server-draft.log")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	re := regexp.MustCompile(`draft acceptance = [0-9.]+ \(\s*(\d+) accepted`)
	sum, n, err := SumLogMatches(re, lines)
	if err != nil || n != 3 || sum != 3*71 {
		t.Errorf("sum %v over %d matches, err %v; want 213 over 3", sum, n, err)
	}
	// Marker lines written by decodebench are never evidence.
	sum, n, _ = SumLogMatches(regexp.MustCompile(`window (\d+)`), []string{MarkerPrefix + "window 5"})
	if n != 0 || sum != 0 {
		t.Errorf("marker line counted: %v %d", sum, n)
	}
	if _, _, err := SumLogMatches(regexp.MustCompile(`v=(\S+)`), []string{"v=abc"}); err == nil {
		t.Error("non-numeric capture accepted")
	}
}

func TestLogWindow(t *testing.T) {
	dir := t.TempDir()
	l, err := NewLog(dir + "/e.log")
	if err != nil {
		t.Fatal(err)
	}
	l.Write([]byte("startup rounds=0\n"))
	l.BeginWindow()
	l.Write([]byte("DFlash diagnostics block_size=4 rounds=79 proposed_tokens=30"))
	l.Write([]byte("0 accepted_tokens=200\nsecond line\n"))
	w := l.EndWindow(10*time.Millisecond, time.Second)
	l.Write([]byte("after rounds=5\n"))
	l.Close()
	if len(w) != 2 || !strings.HasSuffix(w[0], "accepted_tokens=200") {
		t.Fatalf("window = %q", w)
	}
	sum, _, _ := SumLogMatches(regexp.MustCompile(`rounds=(\d+)`), w)
	if sum != 79 {
		t.Errorf("rounds in window = %v, want 79 (startup and later lines excluded)", sum)
	}
	b, _ := os.ReadFile(dir + "/e.log")
	s := string(b)
	if !strings.Contains(s, "measured window start") || !strings.Contains(s, "measured window end") || !strings.Contains(s, "after rounds=5") {
		t.Errorf("log file:\n%s", s)
	}
}

func TestReadEvents(t *testing.T) {
	in := ": comment\n" +
		"data: {\"content\":\"a\"}\n\n" +
		"data: {\"content\":\n" +
		"data: \"b\"}\r\n\r\n" +
		"event: ignored\n" +
		"data: {\"stop\":true}\n\n" +
		"data: [DONE]\n\n" +
		"data: {\"after\":1}\n\n"
	var got []string
	done, err := ReadEvents(strings.NewReader(in), time.Now, func(e Event) error {
		got = append(got, string(e.Data))
		return nil
	})
	if err != nil || !done {
		t.Fatalf("done %v err %v", done, err)
	}
	want := []string{`{"content":"a"}`, "{\"content\":\n\"b\"}", `{"stop":true}`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("events %q, want %q", got, want)
	}
	// A stream cut off mid-way delivers its complete events and reports
	// not done.
	got = nil
	done, err = ReadEvents(strings.NewReader("data: {\"x\":1}\n\ndata: {\"tru"), time.Now, func(e Event) error {
		got = append(got, string(e.Data))
		return nil
	})
	if err != nil || done || len(got) != 1 {
		t.Errorf("truncated: done %v err %v events %q", done, err, got)
	}
	// llama-server reports errors inside a stream as `error:` lines.
	var fields []string
	ReadEvents(strings.NewReader("error: {\"message\":\"boom\"}\n\n"), time.Now, func(e Event) error {
		fields = append(fields, e.Field)
		return nil
	})
	if len(fields) != 1 || fields[0] != "error" {
		t.Errorf("error event fields %v", fields)
	}
}

func TestDecodeRate(t *testing.T) {
	r := &Response{Tokens: 101, FirstEventTokens: 1, FirstTokenAt: 50 * time.Millisecond, LastTokenAt: 1050 * time.Millisecond, Wall: 2 * time.Second}
	if got := r.DecodeTokPerSec(); got != 100 {
		t.Errorf("decode = %v, want 100", got)
	}
	if got := r.E2ETokPerSec(); got != 50.5 {
		t.Errorf("e2e = %v, want 50.5", got)
	}
	if got := (&Response{Tokens: 1, FirstEventTokens: 1}).DecodeTokPerSec(); got != 0 {
		t.Errorf("undefined decode rate = %v, want 0", got)
	}
}

func TestPortConflict(t *testing.T) {
	if !portConflict([]string{"main: couldn't bind HTTP server socket, hostname: 127.0.0.1, port: 8080"}) {
		t.Error("llama-server's bind failure not recognised")
	}
	if portConflict([]string{"model loaded"}) {
		t.Error("false positive")
	}
}

// Complete parses a real llama-server stream (served verbatim from the
// fixture): token count from the engine's timings, ids from return_tokens,
// and the final reply for json counters.
func TestCompleteOnRealStream(t *testing.T) {
	body, err := os.ReadFile("testdata/completion-stream.sse")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req map[string]any
		json.NewDecoder(r.Body).Decode(&req)
		if r.URL.Path != "/completion" || req["stream"] != true || req["return_tokens"] != true || req["n_predict"] != 16.0 {
			http.Error(w, "unexpected request", 400)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		// The first event alone, as an engine sends it before decoding
		// the rest.
		first := bytes.Index(body, []byte("\n\n")) + 2
		w.Write(body[:first])
		w.(http.Flusher).Flush()
		time.Sleep(20 * time.Millisecond)
		w.Write(body[first:])
	}))
	defer srv.Close()
	resp, err := Complete(context.Background(), srv.URL, Request{Endpoint: "/completion", Prompt: "Once upon a time", MaxTokens: 16, IgnoreEOS: true})
	if err != nil {
		t.Fatal(err)
	}
	// 16 tokens arrive in 12 events: llama-server merges tokens that end
	// inside a multi-byte character into one event and then sends only one
	// of their ids, so neither events nor streamed ids count tokens.
	if resp.Tokens != 16 || resp.TokenSource != "timings.predicted_n" || len(resp.TokenIDs) != 12 || resp.TokenIDs[0] != 4 {
		t.Errorf("tokens %d from %s, ids %v", resp.Tokens, resp.TokenSource, resp.TokenIDs)
	}
	if !strings.HasPrefix(resp.Text, "\x01auhu") || resp.Timings["predicted_per_second"] == 0 || !resp.Done {
		t.Errorf("text %q timings %v done %v", resp.Text, resp.Timings, resp.Done)
	}
	if v, found, _ := JSONPath(resp.Final, "timings.predicted_n"); !found || v != 16 {
		t.Errorf("final reply lacks timings: %v", resp.Final)
	}
	if resp.FirstEventTokens != 1 || resp.DecodeTokPerSec() <= 0 {
		t.Errorf("first event tokens %d, decode %v", resp.FirstEventTokens, resp.DecodeTokPerSec())
	}

	// The same stream cut in the middle is a truncated reply, not a result.
	cut := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write(body[:len(body)/2])
	}))
	defer cut.Close()
	if _, err := Complete(context.Background(), cut.URL, Request{Endpoint: "/completion", MaxTokens: 16}); err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("truncated stream: err = %v", err)
	}
}

// Non-streamed OpenAI replies from the real llama-server carry token ids in
// their logprobs, but leave out the tokens held back inside a multi-byte
// character (14 of 16 here): such ids are refused, never used as complete.
func TestReplayIDsOnRealReplies(t *testing.T) {
	for _, tt := range []struct{ file, endpoint string }{
		{"testdata/chat-logprobs.json", "/v1/chat/completions"},
		{"testdata/completions-logprobs.json", "/v1/completions"},
	} {
		b, err := os.ReadFile(tt.file)
		if err != nil {
			t.Fatal(err)
		}
		text, ids, err := dialects[tt.endpoint].replayIDs(b)
		if err == nil || !strings.Contains(err.Error(), "of 16 generated tokens") || text == "" || ids != nil {
			t.Errorf("%s: text %q ids %v err %v", tt.file, text, ids, err)
		}
	}
	full := []byte(`{"choices":[{"text":"ab","logprobs":{"content":[{"id":7},{"id":9}]}}],"usage":{"completion_tokens":2}}`)
	if text, ids, err := dialects["/v1/completions"].replayIDs(full); err != nil || text != "ab" || len(ids) != 2 || ids[1] != 9 {
		t.Errorf("complete logprobs: %q %v %v", text, ids, err)
	}
	noIDs := []byte(`{"choices":[{"text":"ab","logprobs":{"content":[{"token":"a"},{"token":"b"}]}}]}`)
	if _, _, err := dialects["/v1/completions"].replayIDs(noIDs); err == nil {
		t.Error("logprobs without ids accepted")
	}
}

// An HTTP error from the engine is a failed request that quotes the
// engine's answer.
func TestCompleteHTTPError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":{"code":400,"message":"the request exceeds the available context size"}}`, http.StatusBadRequest)
	}))
	defer srv.Close()
	_, err := Complete(context.Background(), srv.URL, Request{Endpoint: "/completion", MaxTokens: 8})
	var he *HTTPError
	if !errors.As(err, &he) || he.Status != 400 || !strings.Contains(err.Error(), "exceeds the available context size") {
		t.Errorf("err = %v", err)
	}
}

// A line the engine writes late about a warmup (after its reply) is not
// read as the measured request's: Settle waits for the log to be quiet
// before the window begins.
func TestLogSettleBeforeWindow(t *testing.T) {
	l, err := NewLog(t.TempDir() + "/e.log")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	l.Write([]byte("warmup accepted_tokens=0\n"))
	late := time.AfterFunc(60*time.Millisecond, func() { l.Write([]byte("warmup late accepted_tokens=10\n")) })
	defer late.Stop()
	l.Settle(150*time.Millisecond, 2*time.Second)
	l.BeginWindow()
	l.Write([]byte("measured accepted_tokens=3\n"))
	// Quiet long enough that a late line unsettled would be inside.
	w := l.EndWindow(200*time.Millisecond, 2*time.Second)
	if len(w) != 1 || !strings.HasPrefix(w[0], "measured") {
		t.Errorf("window = %q, want the measured request's line alone", w)
	}
}
