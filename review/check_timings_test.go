package review

import (
	"maps"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/redact"
	"github.com/decodebench/decodebench/schema"
)

// Committed llama-server records whose engine timings, or client
// figures, are edited in runs.jsonl alone, then re-hashed and re-rendered:
// check holds the timings to the print_timing lines of each run's
// measured window (every measured request's to a block of its own), and
// the client's figures to what they are made of and to what those
// timings allow; each record as written passes, one of concurrent
// streams (a block a stream) among them.
func TestCheckHoldsTimingsToTheEngineLog(t *testing.T) {
	const (
		one     = "spec-draft-epyc-2026-11-29-3" // a measured request a start, no requests kept
		starts  = "spec-draft-epyc-2026-12-05-4" // three a start, each with its timings
		two     = "spec-draft-epyc-2026-12-02"   // two a start, the run's timings only
		chat    = "spec-openai-chat-epyc-2026-11-29"
		streams = "concurrency-h200-2026-12-02"
	)
	measured := func(r *schema.Run, n int) *schema.ServedRequest {
		for i := range r.Requests {
			if r.Requests[i].Kind == schema.RequestMeasured {
				if n--; n == 0 {
					return &r.Requests[i]
				}
			}
		}
		t.Fatalf("run %d has no such measured request", r.Seq)
		return nil
	}
	runForged(t, map[string]forgedCase{
		"one as written":     {one, func([]schema.Run) {}, nil},
		"two as written":     {two, func([]schema.Run) {}, nil},
		"chat as written":    {chat, func([]schema.Run) {}, nil},
		"streams as written": {streams, func([]schema.Run) {}, nil},
		// The reviewer's: -21.3% slower became +14.1% faster.
		"faster": {one, eachRun("draft", func(r *schema.Run) {
			r.Metrics[schema.DecodeTokS] *= 1.45
			r.Metrics[schema.E2ETokS] *= 1.45
			r.Metrics[schema.WallS] /= 1.45
			r.EngineTimings["predicted_per_second"] *= 1.45
			r.EngineTimings["predicted_ms"] /= 1.45
		}), []string{"run 3 (draft): engine_timings.predicted_ms is ", "; its log logs/run-003-draft.log prints 665.79"}},
		"rate only": {one, eachRun("draft", func(r *schema.Run) { r.EngineTimings["predicted_per_second"] = 200 }),
			[]string{"run 3 (draft): engine_timings.predicted_per_second is 200; its log logs/run-003-draft.log prints 190.75"}},
		"drafted": {one, eachRun("draft", func(r *schema.Run) { r.EngineTimings["draft_n"] = 400 }),
			[]string{"run 3 (draft): engine_timings.draft_n is 400; its log logs/run-003-draft.log prints 165"}},
		"drafts the log does not show": {one, eachRun("classic", func(r *schema.Run) { r.EngineTimings["draft_n"] = 100 }),
			[]string{"run 1 (classic): engine_timings.draft_n is 100; its log logs/run-001-classic.log prints no draft acceptance line"}},
		"timings dropped": {one, eachRun("draft", func(r *schema.Run) { r.EngineTimings = nil }),
			[]string{"run 3 (draft): engine_timings are absent; its log logs/run-003-draft.log prints eval time 665.79 ms / 128 tokens"}},
		"a request's timings": {starts, eachRun("draft", func(r *schema.Run) { measured(r, 2).EngineTimings["predicted_ms"] += 100 }),
			[]string{"(draft): measured request 2's engine_timings.predicted_ms is ", "; its log logs/run-"}},
		"the run's timings": {starts, eachRun("classic", func(r *schema.Run) { r.EngineTimings = measured(r, 2).EngineTimings }),
			[]string{"(classic): engine_timings are not its first measured request's"}},
		// The client's figures, the timings as the log prints them.
		"decode rate": {one, eachRun("draft", func(r *schema.Run) { r.Metrics[schema.DecodeTokS] *= 1.3 }),
			[]string{"arm draft: its runs' decode_tok_s is 1.2", " times what the engine's timings allow (the median over its 6 runs, at most 1.05; run "}},
		// A start's value is its requests' mean: one of three raised in
		// every start raises it.
		"a request's decode rate": {starts, eachRun("draft", func(r *schema.Run) {
			measured(r, 3).Metrics[schema.DecodeTokS] *= 1.3
			maps.Copy(r.Metrics, schema.StartMetrics(r.Requests))
		}), []string{"arm draft: its runs' decode_tok_s is 1.0", " times what the engine's timings allow (the median over its 10 runs"}},
		// The first request of a start whose requests keep no timings is
		// held to the run's.
		"first of two": {two, eachRun("draft", func(r *schema.Run) {
			measured(r, 1).Metrics[schema.DecodeTokS] *= 1.3
			maps.Copy(r.Metrics, schema.StartMetrics(r.Requests))
		}), []string{"arm draft: its runs' decode_tok_s is 1.2"}},
		// The engine may stall after it sent its last token: one run past
		// the bound is no forgery.
		"one stalled run": {one, func(runs []schema.Run) { runs[2].Metrics[schema.DecodeTokS] *= 1.3 }, nil},
		"wall time": {one, eachRun("draft", func(r *schema.Run) {
			r.Metrics[schema.WallS] /= 1.45
			r.Metrics[schema.E2ETokS] = float64(r.Tokens) / r.Metrics[schema.WallS]
		}), []string{"run 3 (draft): metrics.wall_s is ", "; the engine spent 0.69"}},
		"end-to-end rate": {one, eachRun("draft", func(r *schema.Run) { r.Metrics[schema.E2ETokS] *= 1.1 }),
			[]string{"run 3 (draft): metrics.e2e_tok_s is ", "; its 128 tokens over its wall_s 0.705511666 give "}},
		"time to first token": {one, eachRun("draft", func(r *schema.Run) { r.Metrics[schema.TTFTms] /= 3 }),
			[]string{"run 3 (draft): metrics.ttft_ms is ", "; the engine took 24.974 ms to evaluate the prompt"}},
		"tokens": {one, eachRun("draft", func(r *schema.Run) { r.Tokens = 100 }),
			[]string{"run 3 (draft): tokens is 100; its engine_timings.predicted_n is 128"}},
		"time per output token": {chat, eachRun("classic", func(r *schema.Run) { r.Metrics[schema.TPOTms] *= 0.8 }),
			[]string{"(classic): metrics.tpot_ms is ", "; its decode rate "}},
	})
}

// A run's wall times are held to its window's (footprint.window_s), and
// the window to its log's window markers and its energy's window: a
// baseline made slower by its wall time alone, or with its window, is
// refused.
func TestCheckHoldsWallTimesToTheWindow(t *testing.T) {
	const energy = "h200-energy-h200-2026-12-02" // one measured request a start, energy
	slower := func(f float64) func(r *schema.Run) {
		return func(r *schema.Run) {
			for i := range r.Requests {
				if q := &r.Requests[i]; q.Kind == schema.RequestMeasured {
					q.Metrics[schema.WallS] *= f
					q.Metrics[schema.E2ETokS] = float64(q.Tokens) / q.Metrics[schema.WallS]
				}
			}
			maps.Copy(r.Metrics, schema.StartMetrics(r.Requests))
		}
	}
	runForged(t, map[string]forgedCase{
		"wall time": {energy, eachRun("classic", slower(1.2)),
			[]string{"(classic): wall_s is ", "; its window (footprint.window_s), its one request's, is "}},
		"and the window": {energy, eachRun("classic", func(r *schema.Run) {
			slower(1.6)(r)
			fp, e := *r.Footprint, *r.Energy
			fp.WindowS, e.WindowS = r.Metrics[schema.WallS], r.Metrics[schema.WallS]
			r.Footprint, r.Energy = &fp, &e
		}), []string{"(classic): footprint.window_s is ", "; its log's window markers are "}},
		"energy's window": {energy, eachRun("classic", func(r *schema.Run) {
			e := *r.Energy
			e.WindowS *= 1.1
			r.Energy = &e
		}), []string{"(classic): energy.window_s is ", "; its footprint.window_s is "}},
	})
}

// A window's print_timing blocks are read in the engine's order, a
// block per task however their lines interleave; a redacted timing line
// may hide any of them, and check then says nothing of the window.
func TestTimingBlocks(t *testing.T) {
	lines := []string{
		"slot print_timing: id  0 | task 7 | prompt eval time =      24.97 ms /     5 tokens (    4.99 ms per token,   200.21 tokens per second)",
		"slot print_timing: id  1 | task 8 | prompt eval time =       2.00 ms /     5 tokens (    0.40 ms per token,  2500.00 tokens per second)",
		"slot print_timing: id  0 | task 7 |        eval time =     665.79 ms /   128 tokens (    5.24 ms per token,   190.75 tokens per second)",
		"slot print_timing: id  1 | task 8 |        eval time =     100.00 ms /    64 tokens (    1.59 ms per token,   630.00 tokens per second)",
		"slot print_timing: id  0 | task 7 | draft acceptance = 0.43030 (   71 accepted /   165 generated), mean len =  2.29",
	}
	blocks, ok := timingBlocks(lines)
	if !ok || len(blocks) != 2 || blocks[0].fields["predicted_ms"] != "665.79" || blocks[0].fields["draft_n"] != "165" ||
		blocks[1].fields["predicted_n"] != "64" || blocks[1].draft {
		t.Fatalf("blocks %+v %+v", blocks[0], blocks[1])
	}
	ti := map[string]float64{"prompt_ms": 24.974, "prompt_n": 5, "prompt_per_token_ms": 4.9948, "prompt_per_second": 200.208,
		"predicted_ms": 665.791, "predicted_n": 128, "predicted_per_token_ms": 5.2424, "predicted_per_second": 190.7505, "draft_n": 165, "draft_n_accepted": 71}
	if f, p := blocks[0].differs(ti); f != "" {
		t.Fatalf("as printed: %s prints %s", f, p)
	}
	if f, _ := blocks[1].differs(ti); f != "prompt_ms" {
		t.Fatalf("another task's block: differs at %q", f)
	}
	masked := append([]string{}, lines...)
	masked[2] = strings.Replace(masked[2], "665.79", redact.Mask, 1)
	if _, ok := timingBlocks(masked); ok {
		t.Fatal("a redacted timing line: read anyway")
	}
}
