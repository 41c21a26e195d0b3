package recorder

import (
	"strconv"
	"strings"

	"github.com/decodebench/decodebench/schema"
)

// factColumns are the raw table's columns of what the engine itself
// reported, each shown only when some run has it: the prompt's token
// count, the draft tokens accepted of those proposed, and the start of the
// generated text (the full text is in runs.jsonl).
func factColumns(runs []schema.Run) []hostColumn {
	some := func(f func(schema.Run) bool) bool {
		for _, r := range runs {
			if f(r) {
				return true
			}
		}
		return false
	}
	var cols []hostColumn
	if some(func(r schema.Run) bool { _, ok := r.EngineTimings["prompt_n"]; return ok }) {
		cols = append(cols, hostColumn{"prompt tokens", "---:", func(r schema.Run) string {
			v, ok := r.EngineTimings["prompt_n"]
			if !ok {
				return "—"
			}
			return count(v)
		}})
	}
	if some(func(r schema.Run) bool { _, ok := r.EngineTimings["draft_n"]; return ok }) {
		cols = append(cols, hostColumn{"drafts accepted", "---:", func(r schema.Run) string {
			n, ok := r.EngineTimings["draft_n"]
			if !ok || n == 0 {
				return "—"
			}
			a := r.EngineTimings["draft_n_accepted"]
			return count(a) + "/" + count(n) + " (" + strconv.FormatFloat(100*a/n, 'f', 0, 64) + "%)"
		}})
	}
	if some(func(r schema.Run) bool { return r.Output != "" }) {
		cols = append(cols, hostColumn{"output starts", "---", func(r schema.Run) string {
			if r.Output == "" {
				return "—"
			}
			return cellCode(excerpt(strings.TrimSpace(r.Output), 24))
		}})
	}
	return cols
}
