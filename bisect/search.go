package bisect

import (
	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/schema"
)

// nextCommit is the commit the search measures next
// (analysis.NextBisectCommit), done when the outcome is decided; once the
// bad revision is measured it sets the summary's outcome as the steps so
// far give it.
func nextCommit(sum *schema.Bisect) (string, bool) {
	shas, classes := commitIDs(sum.Commits), classesOf(sum.Steps)
	if _, tested := classes[shas[len(shas)-1]]; tested {
		sum.Outcome = analysis.ConcludeBisect(shas, classes)
	}
	return analysis.NextBisectCommit(shas, classes)
}

func commitIDs(cs []schema.BisectCommit) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.SHA
	}
	return out
}

func classesOf(steps []schema.BisectStep) map[string]schema.BisectClass {
	m := map[string]schema.BisectClass{}
	for _, s := range steps {
		m[s.Commit] = s.Class
	}
	return m
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
