package harness

import (
	"regexp"
	"strings"
	"time"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// extraMetric reads one of the scenario's own metrics from a run's
// observation.
type extraMetric struct {
	mp       scenarios.MetricPolicy
	sel, den *scenarios.MetricSelector
	log      *regexp.Regexp
}

// newExtraMetrics compiles the scenario's own metrics (validated when
// loading). It reports whether any of them reads the metrics endpoint.
func newExtraMetrics(p scenarios.Policy) ([]extraMetric, bool) {
	var out []extraMetric
	needMetrics := false
	for _, mp := range p.Metrics {
		x := mp.Extra
		if x == nil {
			continue
		}
		em := extraMetric{mp: mp}
		switch {
		case x.Metric != "":
			sel, _ := scenarios.ParseMetricSelector(x.Metric)
			em.sel, needMetrics = &sel, true
		case len(x.Ratio) == 2:
			a, _ := scenarios.ParseMetricSelector(x.Ratio[0])
			b, _ := scenarios.ParseMetricSelector(x.Ratio[1])
			em.sel, em.den, needMetrics = &a, &b, true
		case x.Log != "":
			em.log = regexp.MustCompile(x.Log)
		}
		out = append(out, em)
	}
	return out, needMetrics
}

// readExtraMetrics adds the scenario's own metrics to the run: read ones
// from the observation (a source absent in this run gives no value), then
// derived ones from everything the run has (scenarios.DeriveMetrics, which
// check evaluates again on the stored values). An input without a value
// (tokens the engine did not count, a model file not found) leaves the
// metric without one, never a 0.
func (c *campaign) readExtraMetrics(obs engine.Observation, run *schema.Run) {
	ms := make([]scenarios.MetricPolicy, 0, len(c.extra))
	for _, em := range c.extra {
		if v, ok := em.read(obs); ok && plausible(run, "metric "+em.mp.Name, v, true) {
			run.Metrics[em.mp.Name] = v
		}
		ms = append(ms, em.mp)
	}
	bytes := 0.0
	if c.rec != nil {
		bytes = c.rec.ModelBytes(run.Arm)
	}
	keep := func(name string, v float64) bool { return plausible(run, "metric "+name, v, true) }
	for k, v := range scenarios.DeriveMetrics(ms, run.Metrics, run.Tokens, bytes, keep) {
		run.Metrics[k] = v
	}
}

func (em extraMetric) read(obs engine.Observation) (float64, bool) {
	x := em.mp.Extra
	switch {
	case x.JSON != "":
		v, found, err := engine.JSONPath(obs.Reply, x.JSON)
		return v, found && err == nil
	case em.den != nil:
		num, ok1 := delta(obs, *em.sel)
		den, ok2 := delta(obs, *em.den)
		if !ok1 || !ok2 || den == 0 {
			return 0, false
		}
		return num / den, true
	case em.sel != nil:
		return delta(obs, *em.sel)
	case em.log != nil:
		return engine.Aggregate(em.log, obs.Window, x.Aggregate)
	}
	return 0, false
}

func delta(obs engine.Observation, sel scenarios.MetricSelector) (float64, bool) {
	a, okA := obs.After.Value(sel)
	b, okB := obs.Before.Value(sel)
	if !okA && !okB {
		return 0, false
	}
	return a - b, true
}

// plausible reports whether an engine-reported value can be true
// (engine.Impossible), noting it in the run when it cannot: such a value
// is recorded as absent, never as a number.
func plausible(run *schema.Run, source string, v float64, signed bool) bool {
	if iv, bad := engine.Impossible(source, v, signed); bad {
		run.Impossible = append(run.Impossible, iv)
		return false
	}
	return true
}

// streamMetrics adds what the stream's arrival times give beyond the
// decode rate: on the OpenAI endpoints the time per output token, and,
// when every event was timestamped (engine.request.event_times), the
// decode rate of the median per-token step and, on the OpenAI endpoints,
// the inter-token latency percentiles.
func streamMetrics(endpoint string, resp *engine.Response, run *schema.Run) {
	openai := strings.HasPrefix(endpoint, "/v1/")
	ms := func(d time.Duration) float64 { return d.Seconds() * 1000 }
	if tpot, ok := resp.TPOT(); ok && openai {
		run.Metrics[schema.TPOTms] = ms(tpot)
	}
	p50, p90, p99, ok := resp.ITL()
	if !ok {
		return
	}
	if p50 > 0 {
		run.Metrics[schema.StepTokS] = 1 / p50.Seconds()
	}
	if !openai {
		return
	}
	run.Metrics[schema.ITLp50ms] = ms(p50)
	run.Metrics[schema.ITLp90ms] = ms(p90)
	run.Metrics[schema.ITLp99ms] = ms(p99)
}

// declines returns the window's engine lines (up to five) that match the
// scenario's decline pattern.
func declines(re *regexp.Regexp, lines []string) []string {
	if re == nil {
		return nil
	}
	var out []string
	for _, l := range lines {
		if !strings.HasPrefix(l, engine.MarkerPrefix) && re.MatchString(l) {
			out = append(out, l)
			if len(out) == 5 {
				break
			}
		}
	}
	return out
}
