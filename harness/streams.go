package harness

import (
	"context"
	"time"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/schema"
)

// complete sends a request (a warmup or the measured one): once, or, in a
// scenario where some arm sets concurrency, as the arm's streams released
// together. Warmups go as streams too, so that every slot has served the
// prompt before the measured window.
func (c *campaign) complete(ctx context.Context, baseURL string, req engine.Request, arm string) (engine.Concurrent, error) {
	if !c.scenario.Concurrent() {
		r, err := engine.Complete(ctx, baseURL, req)
		return engine.Concurrent{Streams: []*engine.Response{r}}, err
	}
	return engine.CompleteAll(ctx, baseURL, req, c.scenario.Streams(arm))
}

// recordStreams stores a concurrent run's streams, each stream's json
// counters read from its own reply, and the concurrent-stream metrics
// derived from them (analysis.StreamMetrics, which check derives again).
// The run's own fields are the first stream's.
func (c *campaign) recordStreams(cc engine.Concurrent, obs engine.Observation, run *schema.Run) error {
	if !c.scenario.Concurrent() {
		return nil
	}
	for i, r := range cc.Streams {
		st := schema.Stream{
			SentMs:           ms(cc.Since(r.Start)),
			FirstTokenMs:     ms(cc.Since(r.Start) + r.FirstTokenAt),
			LastTokenMs:      ms(cc.Since(r.Start) + r.LastTokenAt),
			EndMs:            ms(cc.Since(r.Start) + r.Wall),
			Tokens:           r.Tokens,
			FirstEventTokens: r.FirstEventTokens,
			EngineTokS:       r.Timings["predicted_per_second"],
			OutputSHA256:     r.OutputSHA256(),
		}
		if st.OutputSHA256 != run.OutputSHA256 {
			st.Output = r.Text
		}
		if i > 0 {
			run.Impossible = append(run.Impossible, r.Impossible...)
		}
		o := obs
		o.Reply = r.Final
		for _, k := range c.counters {
			if k.Kind != schema.SourceJSON {
				continue
			}
			rd, err := k.Read(o)
			if err != nil {
				return err
			}
			if st.Counters == nil {
				st.Counters = map[string]schema.CounterReading{}
			}
			st.Counters[k.Name] = schema.CounterReading{Value: rd.Value, Text: rd.Text, Note: rd.Note, Absent: rd.Absent, Impossible: rd.Impossible != nil}
		}
		run.Streams = append(run.Streams, st)
	}
	for k, v := range analysis.StreamMetrics(run.Streams) {
		run.Metrics[k] = v
	}
	return nil
}

// ms is d in milliseconds, to the microsecond, as runs store times.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
