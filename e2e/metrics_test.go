package e2e

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

func metricsScenario(endpoint, extraEngine string) string {
	return fmt.Sprintf(`feature: e2e-metrics
title: e2e metrics
vars:
  MODEL_DIR: models
engine:
  preset: llama.cpp
  command: ["%s", "-m", "${MODEL_DIR}/target.gguf", "--host", "127.0.0.1", "--port", "${PORT}", "--metrics", "-t", "2", "-np", "1", "-c", "512"]
  request: {endpoint: %s, prompt: "Once upon a time", max_tokens: 48, temperature: 0, ignore_eos: true}
%sarms:
  - name: classic
    args: ["--spec-type", "none"]
  - name: draft
    args: ["--spec-type", "draft-simple", "--spec-draft-model", "${MODEL_DIR}/draft.gguf"]
baseline: classic
schedule: {rounds: 4, warmup: 0, cooldown: 0s}
counters:
  - name: drafts
    metric: "llamacpp:spec_decode_num_drafts_total"
    expect: {classic: "== 0", draft: "> 0"}
metrics:
  primary: decode_tok_s
  extra:
    - {name: drafted, unit: tok, json: timings.draft_n}
    - {name: accepted, unit: tok, json: timings.draft_n_accepted}
    - {name: acceptance, expr: "accepted / drafted"}
    - {name: acceptance_log, log: 'draft acceptance = ([0-9.]+)'}
    - {name: accept_rate, ratio: ["llamacpp:spec_decode_num_accepted_tokens_total", "llamacpp:spec_decode_num_draft_tokens_total"]}
gates: {max_spread: 0, max_contended: 0}
unmeasured: [Everything but the metrics: this is a test.]
`, llamaServer, endpoint, extraEngine)
}

// Metrics beyond the built-in four: reply fields, an expression of them,
// a log capture of the measured window and a ratio of two Prometheus
// deltas, each summarised with its median and interval.
func TestExtraMetricsAcceptance(t *testing.T) {
	code, rec, md, _ := runFile(t, metricsScenario("/completion", ""))
	if code != 0 && code != 2 {
		t.Fatalf("exit %d", code)
	}
	res, ok := rec.Result("acceptance")
	if !ok {
		t.Fatalf("no acceptance result; results: %+v", rec.Analysis.Results)
	}
	var draft schema.ArmResult
	for _, a := range res.Arms {
		if a.Arm == "draft" {
			draft = a
		}
	}
	if draft.N != 4 || draft.Median <= 0 || draft.Median > 1 || draft.MedianLo <= 0 || draft.MedianHi < draft.MedianLo {
		t.Errorf("acceptance of the draft arm: %+v", draft)
	}
	for _, r := range rec.Runs {
		if r.Arm != "draft" {
			if _, has := r.Metrics["acceptance"]; has {
				t.Errorf("run %d (classic) has an acceptance: a missing input must not read as 0", r.Seq)
			}
			continue
		}
		a, l, pr := r.Metrics["acceptance"], r.Metrics["acceptance_log"], r.Metrics["accept_rate"]
		if math.Abs(a-l) > 0.001 || math.Abs(a-pr) > 0.001 {
			t.Errorf("run %d: acceptance %v from the reply, %v from the log, %v from the metrics", r.Seq, a, l, pr)
		}
	}
	if !strings.Contains(md, "### `acceptance`") {
		t.Error("the record has no acceptance table")
	}
}

// A decline line in the window of an arm expected to run the feature
// REJECTS the campaign with the line quoted. (The pattern here treats an
// acceptance below 100% as a decline, so that the real llama-server's own
// "draft acceptance = …" line, written only when it drafts, is the line.)
func TestDeclineRejects(t *testing.T) {
	code, rec, md, _ := runFile(t, metricsScenario("/completion", "  decline: 'draft acceptance = 0\\.'\n"))
	if code != 3 || rec.Verdict != schema.Rejected {
		t.Fatalf("exit %d, verdict %s", code, rec.Verdict)
	}
	if !strings.Contains(md, "the engine declined the feature under test") || !strings.Contains(md, "draft acceptance = 0.") {
		t.Error("the record does not quote the decline line")
	}
}

// The OpenAI chat endpoint, streamed with event_times: time per output
// token and inter-token latency percentiles are metrics of every run, and
// the record says every event was timestamped.
func TestOpenAIChatLatencies(t *testing.T) {
	code, rec, md, _ := runFile(t, metricsScenario("/v1/chat/completions, event_times: true", ""))
	if code != 0 && code != 2 {
		t.Fatalf("exit %d", code)
	}
	for _, m := range []string{"tpot_ms", "itl_p50_ms", "itl_p90_ms", "itl_p99_ms", "step_tok_s"} {
		if _, ok := rec.Result(m); !ok {
			t.Errorf("no %s result", m)
		}
	}
	for _, r := range rec.Runs {
		if !(r.Metrics["itl_p50_ms"] > 0 && r.Metrics["itl_p50_ms"] <= r.Metrics["itl_p90_ms"] && r.Metrics["itl_p90_ms"] <= r.Metrics["itl_p99_ms"]) {
			t.Errorf("run %d: ITL %v / %v / %v", r.Seq, r.Metrics["itl_p50_ms"], r.Metrics["itl_p90_ms"], r.Metrics["itl_p99_ms"])
		}
		if r.Footprint == nil || r.Footprint.Reads != "every event" {
			t.Errorf("run %d: footprint %+v, want every event read", r.Seq, r.Footprint)
		}
	}
	if !strings.Contains(md, "Every token event was timestamped as it arrived") {
		t.Error("the record does not say every token event was timestamped")
	}
}
