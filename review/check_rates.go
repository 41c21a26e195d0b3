package review

import (
	"fmt"
	"math"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/internal/pct"
	"github.com/decodebench/decodebench/schema"
)

// rateMismatches holds a server run's client figures, request by
// measured request (or the run's, where it keeps no requests), to what
// they are made of and to what the engine's own timings of the same
// request allow (those timings held to the engine's log by
// checkEvidence):
//   - e2e_tok_s is tokens over wall_s (engine.E2ERate), exactly;
//   - tokens is the engine's count where its timings give one
//     (engine.TimingsTokens);
//   - the request took no less wall time than the engine spent on it
//     (prompt eval and eval), and its first token came no sooner than
//     the prompt's evaluation took, each within the two clocks'
//     tolerance the analysis flags past (schema.ClocksBound);
//   - tpot_ms is the time the decode rate is the inverse of, to the
//     nanosecond it is truncated to;
//   - the requests' wall times fit the window's (windowMismatches).
//
// It returns too the start's decode ratio (decodeRatio), which
// decodeClocks holds arm by arm; ok is false where a measured request
// has no bound.
func rateMismatches(r schema.Run) (out []string, ratio float64, ok bool) {
	per := perRequestTimings(r.Requests)
	var ratios []float64
	i, bounded := 0, true
	add := func(who string, m map[string]float64, tokens int, t map[string]float64, bound bool) {
		out = append(out, requestRates(who, m, tokens, t)...)
		if bound {
			q, ok := decodeRatio(m, tokens, t)
			ratios, bounded = append(ratios, q), bounded && ok
		}
	}
	for _, q := range r.Requests {
		if q.Kind != schema.RequestMeasured {
			continue
		}
		i++
		t := q.EngineTimings
		if !per && i == 1 {
			t = r.EngineTimings // the run's are its first measured request's
		}
		// A record's from before requests kept their timings bounds its
		// first only.
		add(fmt.Sprintf("measured request %d's ", i), q.Metrics, q.Tokens, t, per || i == 1)
	}
	if i == 0 {
		add("", r.Metrics, r.Tokens, r.EngineTimings, true)
	}
	out = append(out, windowMismatches(r)...)
	if !bounded || len(ratios) == 0 {
		return out, 0, false
	}
	logs := 0.0
	for _, q := range ratios {
		logs += math.Log(q)
	}
	return out, math.Exp(logs / float64(len(ratios))), true
}

// requestRates is rateMismatches of one request: its metrics m, its
// token count and the engine's timings t (nil where none are stored).
func requestRates(who string, m map[string]float64, tokens int, t map[string]float64) []string {
	var out []string
	say := func(name string, v float64, format string, args ...any) {
		out = append(out, fmt.Sprintf("%smetrics.%s is %s; ", who, name, engine.FormatValue(v))+fmt.Sprintf(format, args...))
	}
	wall, hasWall := m[schema.WallS]
	if e2e, has := m[schema.E2ETokS]; hasWall {
		want := engine.E2ERate(tokens, wall)
		if has != (want > 0) || (has && e2e != want) {
			out = append(out, fmt.Sprintf("%smetrics.e2e_tok_s is %s; its %d tokens over its wall_s %s give %s", who, present(has, e2e), tokens, engine.FormatValue(wall), present(want > 0, want)))
		}
	}
	if n, ok := engine.TimingsTokens(t); ok && tokens != n {
		out = append(out, fmt.Sprintf("%stokens is %d; its engine_timings.predicted_n is %d", who, tokens, n))
	}
	decode, hasDecode := m[schema.DecodeTokS]
	if tpot, has := m[schema.TPOTms]; has && hasDecode && decode > 0 && math.Abs(tpot-1000/decode) > 2e-6 {
		say(schema.TPOTms, tpot, "its decode rate %s gives %s", engine.FormatValue(decode), engine.FormatValue(1000/decode))
	}
	prompt, okP := t["prompt_ms"]
	eval, okE := t["predicted_ms"]
	if !okP || !okE {
		return out
	}
	slack := 1 + schema.ClocksBound
	within := "within " + pct.Exact(schema.ClocksBound)
	if engineS := (prompt + eval) / 1000; hasWall && wall*slack+clockSlackS < engineS {
		say(schema.WallS, wall, "the engine spent %s s on it (prompt eval %s ms + eval %s ms), %s and 20 ms", approx(engineS), engine.FormatValue(prompt), engine.FormatValue(eval), within)
	}
	if ttft, has := m[schema.TTFTms]; has && ttft*slack < prompt {
		say(schema.TTFTms, ttft, "the engine took %s ms to evaluate the prompt, %s", engine.FormatValue(prompt), within)
	}
	return out
}

// decodeRatio is a request's client decode rate over the most the
// engine's timings allow it: its first token arrived at its time to first
// token, its last when the engine's eval ended (prompt eval + eval after
// the request was sent, on the engine's clock) less the timer's run-on
// after the last byte (clockSlackS, as the wall time is allowed), so the
// tokens after the first came over no less than the time between. A stall of the engine's
// after it sent its last token lengthens its eval and not the client's
// span, so one request may pass the bound; decodeClocks holds an arm's
// median to it. ok is false where the request has no bound.
func decodeRatio(m map[string]float64, tokens int, t map[string]float64) (float64, bool) {
	prompt, okP := t["prompt_ms"]
	eval, okE := t["predicted_ms"]
	decode, hasDecode := m[schema.DecodeTokS]
	ttft, hasTTFT := m[schema.TTFTms]
	// The engine's timer runs on after its last byte is sent (clockSlackS),
	// which a short request's 5% does not cover: a genuine run of the
	// bisect e2e test measured 1.056 on a loaded host.
	span := (prompt+eval-ttft)/1000 - clockSlackS
	if !okP || !okE || !hasDecode || !hasTTFT || tokens < 2 || span <= 0 || decode <= 0 {
		return 0, false
	}
	return decode / (float64(tokens-1) / span), true
}

// clockSlackS is what the engine's timings may exceed a request's wall
// time by besides the clocks' share: a short request's 5% is a few
// milliseconds, less than the engine's timer runs on after its last byte
// is sent (a genuine 70 ms request measured 3.5 ms under its engine's
// prompt eval plus eval).
const clockSlackS = 0.020
