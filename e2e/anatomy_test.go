package e2e

import (
	"math"
	"os/exec"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// TestRequestsPerStartAnatomy: with schedule.requests: 2 every engine
// start serves its warmup and two measured requests; the raw run keeps all
// three, the run's value is the two measured requests' geometric mean (the
// start is what the analysis replicates), and the record has the noise
// anatomy with its figures and advice, and passes check. Output identity
// compares both measured requests token by token: the start's warmup,
// sent whole (not streamed) before the window, names the ids of each that
// generated its text, so no run is replayed after its window (the
// synthetic model's stream leaves ids out; without the whole warmup every
// run was replayed). The anatomy leaves the whole warmup out.
func TestRequestsPerStartAnatomy(t *testing.T) {
	res := run(t, scenario{Feature: "e2e-anatomy", Rounds: 3, Warmup: 1, Requests: 2, MaxTokens: 32, Cooldown: "0s",
		Extra: "exactness: {compare: [draft], against: classic}\n"})
	if res.record == nil {
		t.Fatalf("exit %d, no record:\n%s", res.code, res.stderr)
	}
	rec := res.record
	if rec.Method.Requests != 2 || rec.Method.Warmup != 1 {
		t.Errorf("method: %d measured requests, %d warmups per start", rec.Method.Requests, rec.Method.Warmup)
	}
	runs := readRuns(t, res)
	if len(runs) != 6 {
		t.Fatalf("%d runs, want 6 (one per start)", len(runs))
	}
	for _, r := range runs {
		if len(r.Requests) != 3 || r.Requests[0].Kind != schema.RequestWarmup || r.Requests[1].Kind != schema.RequestMeasured || r.Requests[2].Kind != schema.RequestMeasured {
			t.Fatalf("run %d served %+v, want a warmup and two measured", r.Seq, r.Requests)
		}
		if w := r.Requests[0]; !w.Whole || w.Tokens != 32 || w.Metrics[schema.WallS] <= 0 {
			t.Errorf("run %d: warmup %+v, want one sent whole that generated 32 tokens", r.Seq, w)
		}
		a, b := r.Requests[1].Metrics[schema.DecodeTokS], r.Requests[2].Metrics[schema.DecodeTokS]
		if want := math.Sqrt(a * b); a <= 0 || b <= 0 || math.Abs(r.Metrics[schema.DecodeTokS]-want) > 1e-9*want {
			t.Errorf("run %d: decode %v, want the geometric mean of %v and %v", r.Seq, r.Metrics[schema.DecodeTokS], a, b)
		}
		if r.ReadyS <= 0 || r.Requests[1].Metrics[schema.WallS] <= 0 {
			t.Errorf("run %d: ready %v s, request wall %v s", r.Seq, r.ReadyS, r.Requests[1].Metrics[schema.WallS])
		}
		if q := r.Requests[2]; len(r.TokenIDs) != 32 || len(q.TokenIDs) != 32 || q.Output != r.Output || r.Phases.ReplayS != 0 || !strings.Contains(r.TokenNote, "last warmup") {
			t.Errorf("run %d: ids %d, the second request's %d (text the same: %v), replay %+v, note %q", r.Seq, len(r.TokenIDs), len(q.TokenIDs), q.Output == r.Output, r.Phases, r.TokenNote)
		}
	}
	if id := rec.Analysis.Identity; id == nil || id.Verdict != "IDENTICAL" || !id.Baseline.TokensCompared || !id.Arms[0].TokensCompared || id.Arms[0].Runs != 6 {
		t.Errorf("identity: %+v", id)
	}
	an := rec.Analysis.Anatomy
	if an == nil || an.Gap != "" || an.Pooled == nil || an.Pooled.Starts != 6 || an.Pooled.PerStart != 2 || !an.LastWarmupLeftOut || len(an.Arms) != 2 || an.Advice < 1 {
		t.Fatalf("anatomy: %+v", an)
	}
	if an.Pooled.StartS <= an.Pooled.RequestS || an.Pooled.RequestS <= 0 || an.Pooled.ReadyS <= 0 {
		t.Errorf("costs: start %v s, request %v s, ready %v s", an.Pooled.StartS, an.Pooled.RequestS, an.Pooled.ReadyS)
	}
	for _, want := range []string{"## Noise anatomy", "| pooled | 6 | 2 |", "the last warmup, sent whole", "schedule.requests:", "the start is the unit of replication", "Prefix cache, by arm: `classic`: disabled per request"} {
		if !strings.Contains(res.md, want) {
			t.Errorf("record lacks %q", want)
		}
	}
	checkTimeUse(t, res, 0)
	if out, err := exec.Command(binary, "check", res.path).CombinedOutput(); err != nil {
		t.Errorf("check: %v\n%s", err, out)
	}
	if i := strings.Index(res.md, "## Noise anatomy"); i >= 0 {
		sec := res.md[i:]
		if j := strings.Index(sec[3:], "\n## "); j >= 0 {
			sec = sec[:j+3]
		}
		t.Log(sec)
	}
	t.Logf("anatomy: between %.2f%%, within %.2f%%, start %.2f s, request %.3f s, advice %d", an.Pooled.BetweenCV, an.Pooled.WithinCV, an.Pooled.StartS, an.Pooled.RequestS, an.Advice)
}

// TestPromptNotCachedOnEveryEndpoint: on llama-server's OpenAI-compatible
// endpoints the measured request (the second of its start, after a
// warmup with the same prompt) reprocesses its whole prompt: the reply's
// timings.cache_n is 0. With a distinct prefix per request at most the
// leading token is reused. Without either (prefix_cache: unknown) the
// second request is served from the cache, so the field is what does it.
func TestPromptNotCachedOnEveryEndpoint(t *testing.T) {
	counters := "  - name: drafts\n    metric: \"llamacpp:spec_decode_num_drafts_total\"\n    expect: {classic: \"== 0\", draft: \"> 0\"}\n"
	for _, tc := range []struct {
		name, endpoint, prefixCache string
		maxCached                   float64 // most cache_n allowed; -1: must be more than 1
	}{
		{"completions", "/v1/completions", "", 0},
		{"chat", "/v1/chat/completions", "", 0},
		{"native", "/completion", "", 0},
		{"distinct", "/v1/completions", "distinct-prefix", 1},
		{"unknown", "/v1/completions", "unknown", -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := "    endpoint: " + tc.endpoint + "\n"
			if tc.prefixCache != "" {
				req += "    prefix_cache: " + tc.prefixCache + "\n"
			}
			res := run(t, scenario{Feature: "e2e-cache-" + tc.name, Rounds: 1, Warmup: 1, MaxTokens: 16, Cooldown: "0s",
				Prompt: "Once upon a time there was a little robot who wanted to learn", Request: req, Counters: counters})
			if res.record == nil {
				t.Fatalf("exit %d, no record:\n%s", res.code, res.stderr)
			}
			want := schema.PrefixCacheDisabled
			if tc.prefixCache != "" {
				want = schema.PrefixCache(tc.prefixCache)
			}
			for _, a := range res.record.Method.PrefixCache {
				if a.State != want {
					t.Errorf("arm %s: prefix cache %q, want %q", a.Arm, a.State, want)
				}
			}
			runs := readRuns(t, res)
			if len(runs) == 0 {
				t.Fatal("no runs")
			}
			for _, r := range runs {
				cached, ok := r.EngineTimings["cache_n"]
				prompt, _ := r.EngineTimings["prompt_n"]
				switch {
				case !ok:
					t.Errorf("run %d: no timings.cache_n in the reply (%v)", r.Seq, r.EngineTimings)
				case tc.maxCached < 0 && cached <= 1:
					t.Errorf("run %d: cache_n %v without cache_prompt: the contrast did not show the cache", r.Seq, cached)
				case tc.maxCached >= 0 && cached > tc.maxCached:
					t.Errorf("run %d: cache_n %v (prompt_n %v): the prompt came from the cache", r.Seq, cached, prompt)
				}
				if tc.prefixCache == "distinct-prefix" {
					if len(r.Requests) != 2 || r.Requests[0].Prefix == "" || r.Requests[0].Prefix == r.Requests[1].Prefix {
						t.Errorf("run %d: distinct prefixes %+v", r.Seq, r.Requests)
					}
				}
				t.Logf("%s run %d: cache_n %v, prompt_n %v", tc.name, r.Seq, cached, prompt)
			}
		})
	}
}
