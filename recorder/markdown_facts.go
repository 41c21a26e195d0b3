package recorder

import (
	"strconv"
	"strings"
)

// factColumns are the raw table's columns of what the engine itself
// reported, each shown only when some run has it: the prompt's token
// count, the draft tokens accepted of those proposed, and the start of the
// generated text (the full text is in runs.jsonl).
var factColumns = []column[runRow]{
	right("prompt tokens", func(r runRow) string {
		v, ok := r.EngineTimings["prompt_n"]
		if !ok {
			return "—"
		}
		return count(v)
	}).optional(),
	right("drafts accepted", func(r runRow) string {
		n, ok := r.EngineTimings["draft_n"]
		if !ok || n == 0 {
			return "—"
		}
		a := r.EngineTimings["draft_n_accepted"]
		return count(a) + "/" + count(n) + " (" + strconv.FormatFloat(100*a/n, 'f', 0, 64) + "%)"
	}).when(func(r runRow) bool { _, ok := r.EngineTimings["draft_n"]; return ok }),
	left("output starts", func(r runRow) string {
		if r.Output == "" {
			return "—"
		}
		if r.v2 {
			return cellCode(excerpt(strings.TrimSpace(r.Output), 24))
		}
		return cellCode(escapeBytes(strings.TrimSpace(r.Output), 24))
	}).when(func(r runRow) bool { return r.Output != "" }),
}
