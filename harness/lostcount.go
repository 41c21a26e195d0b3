package harness

import (
	"fmt"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// lostCount fails a command engine's run whose output lacks a count its
// arm needs: a log or json: counter whose source the output never showed,
// where the arm's expectation does not hold for 0. llama.cpp's CLIs now
// and then exit before their log thread has written the last lines (the
// timing line, n_draft and n_drafted among them): a count the command did
// not print is a lost line, not a count of 0, and read as 0 it would
// reject a campaign whose engine did what its arm says. The run fails, and
// on_failure: retry runs it again, as it does for a lost timing line. A
// count the engine reported as NaN is no lost line: the analysis fails
// it (an impossible reading meets no expectation). A
// count whose absence the expectation allows (an arm expected to draft
// nothing prints nothing) stays recorded as absent. The run names the
// counter (LostCount), so that the analysis can bound how many of an
// arm's attempts lose one: an engine whose feature engages on some runs
// only, and prints no counter line on the others, would otherwise pass by
// having them dropped or retried (analysis/lostcounts.go).
func lostCount(p scenarios.Policy, run *schema.Run) error {
	for _, k := range p.Counters {
		if k.Kind != schema.SourceLog && k.Kind != schema.SourceJSON {
			continue
		}
		rd, read := run.Counters[k.Name]
		ex, has := k.Expect[run.Arm]
		if !read || !rd.Absent || rd.Impossible || !has || analysis.CounterHolds(k, ex, analysis.Reading{}) {
			continue
		}
		run.LostCount = k.Name
		return fmt.Errorf("the command's output has no match for counter %s (%s %q), which arm %s expects %s: a count the command did not print is not 0",
			k.Name, k.Kind, k.Expr, run.Arm, ex)
	}
	return nil
}
