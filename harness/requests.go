package harness

import (
	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/schema"
)

// servedRequest is the request a start serves as its n-th (1-based,
// warmups counted): the scenario's, with the prefix-cache state's field,
// and, under a distinct prefix, a prompt of its own, whose prefix it
// returns.
func (c *campaign) servedRequest(slot Slot, n int) (engine.Request, string) {
	req := c.request()
	if req.PrefixCache != schema.PrefixCacheDistinct {
		return req, ""
	}
	req.Prompt = engine.DistinctPrompt(req.Prompt, slot.Seq, n)
	return req, schema.DistinctPrefix(slot.Seq, n)
}

// requestMetrics are the client's measurements of one request: time to
// first token, wall time, the decode and end-to-end rates and the stream
// metrics.
func requestMetrics(endpoint string, resp *engine.Response) map[string]float64 {
	run := &schema.Run{Metrics: map[string]float64{
		schema.TTFTms: float64(resp.TTFT.Microseconds()) / 1000,
		schema.WallS:  resp.Wall.Seconds(),
	}}
	if v := resp.DecodeTokPerSec(); v > 0 {
		run.Metrics[schema.DecodeTokS] = v
	}
	if v := resp.E2ETokPerSec(); v > 0 {
		run.Metrics[schema.E2ETokS] = v
	}
	streamMetrics(endpoint, resp, run)
	return run.Metrics
}

// windowResponse is the measured window's response: the first measured
// request's (its text, tokens and timings stand for the start's, as the
// requests are the same), spanning the window from its start to the end
// of the last, with decodebench's CPU over all of them.
func windowResponse(measured []*engine.Response) *engine.Response {
	w := *measured[0]
	if len(measured) == 1 {
		return &w
	}
	last := measured[len(measured)-1]
	w.Wall = last.Start.Add(last.Wall).Sub(w.Start)
	w.SelfCPU = 0
	for _, r := range measured {
		w.SelfCPU += r.SelfCPU
	}
	return &w
}
