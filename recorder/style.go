package recorder

import (
	"slices"
	"strconv"
	"strings"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/internal/pct"
	"github.com/decodebench/decodebench/schema"
)

// style says how a record's sentences are written: user-controlled text
// escaped for Markdown, or as is for the console; v2 for a v2 record,
// whose sentences stay as they were; busy, the processes its runs caught
// using the CPU (a remedy names them only when there are some); and the
// rule the record was analysed under, whose parts choose the words of its
// verdict lines and method.
type style struct {
	md   bool
	v2   bool
	busy []string
	rule analysis.Rule
	// rounds are the rounds the record's schedule planned (its most).
	rounds int
}

// recordStyle is the style of a record's sentences; a record of a rule
// this decodebench does not know cannot be worded.
func recordStyle(r *schema.Record, md bool) (style, error) {
	rule, err := analysis.RuleOf(r.Method.Rule)
	if err != nil {
		return style{}, err
	}
	f := style{md: md, v2: r.Schema == schema.SchemaV2, rule: rule, rounds: r.Method.Rounds}
	for _, run := range r.Runs {
		if c := run.Contention; c != nil && c.Culprit != nil && !slices.Contains(f.busy, c.Culprit.Name) {
			f.busy = append(f.busy, c.Culprit.Name)
		}
	}
	return f, nil
}

// consoleStyle is the style of the console's lines about a record the
// campaign writes, whose rule is known; a record of an unknown rule is
// worded as the current rule words it.
func consoleStyle(r *schema.Record) style {
	f, err := recordStyle(r, false)
	if err != nil {
		f = style{rule: analysis.Current()}
	}
	return f
}

// exact reports whether the record's rule states levels, missing
// comparisons and the runs a reason counts exactly (robust-11 on).
func (f style) exact() bool { return f.rule.Statements >= analysis.StatementsExact }

// asRun reports whether the record's rule states the rounds run, the
// cooldowns slept and a control's counter expectation as they were
// (robust-12 on).
func (f style) asRun() bool { return f.rule.Statements >= analysis.StatementsAsRun }

// level states a level or an alpha: rounded to four decimals, and under
// the rule's exact statements one below 0.00005 in two significant digits
// (an early sequential look's, about 1e-6, was "level 0").
func (f style) level(v float64) string {
	if f.exact() && v > 0 && round4(v) == 0 {
		return strconv.FormatFloat(v, 'g', 2, 64)
	}
	return count(round4(v))
}

func (f style) text(s string) string {
	if f.md {
		return text(s)
	}
	return oneLine(s)
}

func (f style) code(s string) string {
	if f.md {
		return code(s)
	}
	return "`" + oneLine(s) + "`"
}

// busyRemedy says what to do about the other processes: stop those the
// runs caught, or, when none was caught, find them.
func (f style) busyRemedy() string {
	if len(f.busy) == 0 {
		return "find what else was running (no single process was caught using the CPU; see the load under Machine)"
	}
	names := f.busy
	more := ""
	if len(names) > 3 {
		names, more = names[:3], ", …"
	}
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = f.code(n)
	}
	return "stop the busy processes the raw runs name under \"busiest other process\" (" + strings.Join(q, ", ") + more + ")"
}

// pct formats a threshold: to ten significant digits (7%, not the
// 7.000000000000001% of 0.07×100), every digit in a v2 record.
func (f style) pct(v float64) string {
	if f.v2 {
		return pct.Exact(v)
	}
	return pct.Rounded(v)
}
