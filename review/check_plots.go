package review

import (
	"fmt"
	"slices"

	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/plots"
	"github.com/decodebench/decodebench/schema"
)

// checkPlots holds the record's figures to the files the harness writes:
// each a figure's own name (plots.Names), named once, in the record's list
// of files with its sha256 (checkFiles compares it). The Markdown shows
// each as the campaign's: a record naming another record's timeline
// (../other/timeline.png) or a file its data folder lacks passed.
func checkPlots(rec *schema.Record) []Problem {
	var out []Problem
	seen := map[string]bool{}
	for _, p := range rec.Plots {
		switch {
		case !slices.Contains(plots.Names, p):
			out = append(out, Problem{"Data", fmt.Sprintf("plot %s is not a figure decodebench writes (%v)", termsafe.String(p), plots.Names)})
		case seen[p]:
			out = append(out, Problem{"Data", fmt.Sprintf("plot %s is named twice", p)})
		case !slices.ContainsFunc(rec.Files, func(f schema.FileSum) bool { return f.Path == p }):
			out = append(out, Problem{"Data", fmt.Sprintf("plot %s is not among the record's files", p)})
		}
		seen[p] = true
	}
	return out
}
