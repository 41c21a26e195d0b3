package review

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// checkAnalysis re-derives the analysis from the runs and compares it with
// the data block's.
func checkAnalysis(p scenarios.Policy, rec *schema.Record) []Problem {
	fresh, verdict, err := analysis.Rederive(p, rec)
	if err != nil {
		return []Problem{{"Method", err.Error()}}
	}
	var probs []Problem
	if verdict != rec.Verdict {
		probs = append(probs, Problem{"Title", fmt.Sprintf("verdict %s, but the runs give %s", rec.Verdict, verdict)})
	}
	if sameJSON(rec.Analysis, fresh) {
		return probs
	}
	a, _ := json.Marshal(rec.Analysis)
	b, _ := json.Marshal(fresh)
	if !bytes.Equal(a, b) {
		probs = append(probs, Problem{"Data", "the data block's analysis differs from a fresh analysis of runs.jsonl: " + firstDifference(rec.Analysis, fresh)})
	}
	return probs
}
