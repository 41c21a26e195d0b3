package review

import (
	"strings"

	"github.com/decodebench/decodebench/schema"
)

// Sections every record has, in order.
var requiredSections = []string{"## Summary", "## Engine", "## Machine", "## Method", "## Counter evidence", "## Raw runs", "## Not measured", "## Data"}

// checkSections finds each required section and says which are missing,
// out of order, or empty.
func checkSections(md string, rec *schema.Record) []Problem {
	var probs []Problem
	lines := strings.Split(md, "\n")
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "# ") {
		probs = append(probs, Problem{"Title", "the record does not start with its title"})
	}
	want := append([]string{}, requiredSections...)
	if rec.Verdict.ShowsResults() && len(rec.Analysis.Results) > 0 {
		want = append(want, "## Results")
	}
	if rec.Analysis.Identity != nil {
		want = append(want, "## Output identity")
	}
	body := map[string]int{}
	current := ""
	for _, l := range lines {
		if strings.HasPrefix(l, "## ") {
			if _, dup := body[l]; dup {
				probs = append(probs, Problem{strings.TrimPrefix(l, "## "), "section appears twice"})
			}
			current = l
			body[l] = 0
			continue
		}
		if current != "" && strings.TrimSpace(l) != "" {
			body[current]++
		}
	}
	for _, h := range want {
		n, ok := body[h]
		switch {
		case !ok:
			probs = append(probs, Problem{strings.TrimPrefix(h, "## "), "section missing"})
		case n == 0:
			probs = append(probs, Problem{strings.TrimPrefix(h, "## "), "section empty"})
		}
	}
	return probs
}
