package review

import (
	"fmt"
	"slices"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/schema"
)

// checkStreams checks a run's concurrent streams against what the run
// stores of them: each stream's output against its hash, and the
// concurrent-stream metrics derived again from the streams' times and
// token counts (analysis.StreamMetrics). It returns the first problem.
func checkStreams(r schema.Run) *Problem {
	for i, st := range r.Streams {
		text := schema.StreamText(r, st)
		if sum := sha256Hex(text); sum != st.OutputSHA256 {
			return &Problem{"Raw runs", fmt.Sprintf("run %d (%s), stream %d: output_sha256 %.12s does not match its output (%.12s)", r.Seq, termsafe.String(r.Arm), i+1, termsafe.String(st.OutputSHA256), sum)}
		}
	}
	if !r.OK() {
		return nil
	}
	fresh := analysis.StreamMetrics(r.Streams)
	for _, m := range schema.Metrics {
		if !m.Concurrent {
			continue
		}
		stored, has := r.Metrics[m.Name]
		v, derived := fresh[m.Name]
		switch {
		case has != derived:
			return &Problem{"Raw runs", fmt.Sprintf("run %d (%s): %s is %s in runs.jsonl but %s from its streams", r.Seq, termsafe.String(r.Arm), m.Name, present(has, stored), present(derived, v))}
		case has && stored != v:
			return &Problem{"Raw runs", fmt.Sprintf("run %d (%s): %s is %v in runs.jsonl, but its streams give %v", r.Seq, termsafe.String(r.Arm), m.Name, stored, v)}
		}
	}
	return nil
}

func present(has bool, v float64) string {
	if !has {
		return "absent"
	}
	return fmt.Sprint(v)
}

// streamsProblem is the first problem of any run's streams.
func streamsProblem(runs []schema.Run) *Problem {
	i := slices.IndexFunc(runs, func(r schema.Run) bool { return checkStreams(r) != nil })
	if i < 0 {
		return nil
	}
	return checkStreams(runs[i])
}
