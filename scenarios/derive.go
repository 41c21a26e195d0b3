package scenarios

// DeriveMetrics computes a run's expression metrics (metrics.extra[].expr)
// from its other values, as the harness does once it has read every
// other one, and as check does again from the values runs.jsonl stores:
// the same function, so that a stored expression metric is exactly what
// its inputs give. Each expression is evaluated once all of its inputs
// have a value (so one may use another declared after it): the run's
// metrics, tokens (when tokens > 0) and model_bytes (when modelBytes >
// 0), a metric of either name taking the place of the variable. An input
// without a value leaves the metric without one, never a 0; keep says
// whether a value can be true (one that cannot is left out too). It
// returns the values kept, metrics itself unchanged.
func DeriveMetrics(ms []MetricPolicy, metrics map[string]float64, tokens int, modelBytes float64, keep func(name string, v float64) bool) map[string]float64 {
	vars := map[string]float64{}
	if tokens > 0 {
		vars[VarTokens] = float64(tokens)
	}
	if modelBytes > 0 {
		vars[VarModelBytes] = modelBytes
	}
	for k, v := range metrics {
		vars[k] = v
	}
	out := map[string]float64{}
	done := map[string]bool{}
	for progress := true; progress; {
		progress = false
		for _, m := range ms {
			if !m.Derived() || done[m.Name] || !haveAll(m.Inputs, vars) {
				continue
			}
			done[m.Name], progress = true, true
			if v, ok := m.Eval(vars); ok && keep(m.Name, v) {
				out[m.Name], vars[m.Name] = v, v
			}
		}
	}
	return out
}

// haveAll reports whether every input of an expression has a value in
// this run, so that a missing input never reads as 0.
func haveAll(inputs []string, vars map[string]float64) bool {
	for _, name := range inputs {
		if _, ok := vars[name]; !ok {
			return false
		}
	}
	return true
}
