package review

import (
	"fmt"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/schema"
)

// windowMismatches holds the measured requests' wall times to the
// window's (footprint.window_s: from the first request's start to the
// last's end), which the energy integrates over: one request's is the
// window's, several fit in it.
func windowMismatches(r schema.Run) []string {
	if r.Footprint == nil || r.Footprint.WindowS <= 0 {
		return nil
	}
	window := r.Footprint.WindowS
	var out []string
	if e := r.Energy; e != nil && e.Unavailable == "" && e.WindowS != window {
		out = append(out, fmt.Sprintf("energy.window_s is %s; its footprint.window_s is %s", engine.FormatValue(e.WindowS), engine.FormatValue(window)))
	}
	walls, n := 0.0, 0
	for _, q := range r.Requests {
		if q.Kind == schema.RequestMeasured {
			walls, n = walls+q.Metrics[schema.WallS], n+1
		}
	}
	kept := n > 0 // a record's from before requests were kept: its run's
	if !kept {
		walls, n = r.Metrics[schema.WallS], 1
	}
	switch {
	case kept && n == 1 && len(r.Streams) == 0 && walls != window:
		out = append(out, fmt.Sprintf("wall_s is %s; its window (footprint.window_s), its one request's, is %s", engine.FormatValue(walls), engine.FormatValue(window)))
	case walls > window*(1+1e-9):
		out = append(out, fmt.Sprintf("wall_s of its %d measured request(s) adds up to %s; its window (footprint.window_s) is %s", n, engine.FormatValue(walls), engine.FormatValue(window)))
	}
	return out
}

// windowSpan holds a run's window (footprint.window_s) to the span of
// its log's window markers, written before its first request and after
// its last (on the host's wall clock, so within the clocks' tolerance),
// where the window shows the engine served its requests inside it (its
// print_timing lines).
func windowSpan(r schema.Run, w engine.StoredWindow) string {
	if blocks, ok := timingBlocks(w.Lines); r.Footprint == nil || w.Began.IsZero() || w.Ended.IsZero() || !ok || len(blocks) == 0 {
		return ""
	}
	span := w.Ended.Sub(w.Began).Seconds()
	if r.Footprint.WindowS <= span*(1+schema.ClocksBound) {
		return ""
	}
	return fmt.Sprintf("footprint.window_s is %s; its log's window markers are %s s apart", engine.FormatValue(r.Footprint.WindowS), engine.FormatValue(span))
}
