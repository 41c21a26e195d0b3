package scenarios

import (
	"fmt"
	"sort"
	"strings"
)

// Pos is a 1-based line and column in a scenario file; a column of 0 is
// unknown (a YAML syntax error's, at times), and is not printed.
type Pos struct{ Line, Col int }

// Error is one problem of a scenario file, at a position and a key.
type Error struct {
	File string
	Pos  Pos
	Key  string // dotted path of the key, e.g. "arms[1].name"; may be empty
	Msg  string
	// Warning marks a problem that does not stop the scenario from running.
	Warning bool
	// Futile marks a warning that makes every outcome of the campaign
	// INCONCLUSIVE (too few rounds to ever reach significance): run runs
	// it, as a quick look; validate refuses it.
	Futile bool
	// Rule marks an error that only the rule new records are judged by
	// (schema.RuleCurrent) refuses, where an earlier rule ran it: the
	// stored scenario of a record written under that rule may have it,
	// and no variable of this machine mends it.
	Rule bool
	// Shown is where the command the user ran shows the problem when
	// not at File, Pos: a record's stored copy of the scenario (its data
	// folder's scenario.yaml, at Pos), or the flag a generated
	// scenario's key came from (Origin).
	Shown string
}

func (e *Error) Error() string {
	label := ""
	if e.Warning {
		label = "warning"
	}
	return e.labeled(label)
}

// Refusal is the problem as validate states it, which refuses a scenario
// that a futile warning marks: "refused:" where Error says "warning:".
func (e *Error) Refusal() string {
	if e.Futile {
		return e.labeled("refused")
	}
	return e.Error()
}

// Stored is the problem placed in the scenario's own text (File, Pos)
// whatever the command showed it at (Shown): as a record, which keeps
// the scenario by its path, states it.
func (e *Error) Stored() string {
	c := *e
	c.Shown = ""
	return c.Error()
}

// position is the file, line and column (where known) of the problem.
func (e *Error) position() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Pos.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Pos.Line)
	}
	if e.Pos.Line > 0 && e.Pos.Col > 0 {
		fmt.Fprintf(&b, ":%d", e.Pos.Col)
	}
	return b.String()
}

func (e *Error) labeled(label string) string {
	var b strings.Builder
	if e.Shown != "" {
		b.WriteString(e.Shown)
	} else {
		b.WriteString(e.position())
	}
	b.WriteString(": ")
	if label != "" {
		b.WriteString(label + ": ")
	}
	if e.Key != "" {
		b.WriteString(e.Key)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Errors is every problem found in one scenario file, in file order.
type Errors []*Error

func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// ByRule splits the fatal errors into the current rule's refusals
// (Error.Rule) and the others.
func (es Errors) ByRule() (rule, other Errors) {
	for _, e := range es.Fatal() {
		if e.Rule {
			rule = append(rule, e)
		} else {
			other = append(other, e)
		}
	}
	return rule, other
}

// Fatal returns the errors that are not warnings.
func (es Errors) Fatal() Errors {
	var out Errors
	for _, e := range es {
		if !e.Warning {
			out = append(out, e)
		}
	}
	return out
}

// Warnings returns the warnings.
func (es Errors) Warnings() Errors {
	var out Errors
	for _, e := range es {
		if e.Warning {
			out = append(out, e)
		}
	}
	return out
}

// WithheldMsg is what Withheld puts in place of a message.
const WithheldMsg = "a problem here (its message is withheld, as it may quote the file)"

// Withheld returns the errors with their messages withheld, each kept to
// its file, position and key (with its flags): the file is one that a
// data folder from someone else named (a resume's campaign.json, a
// bisect's state), which may be any file of this machine, a key's or
// credentials' file among them, so no message may show its text (a
// parse error quotes the line it could not read, a check the value it
// refuses). decodebench validate shows the messages of a file one names.
func (es Errors) Withheld() Errors {
	out := make(Errors, len(es))
	for i, e := range es {
		w := *e
		w.Msg = WithheldMsg
		out[i] = &w
	}
	return out
}

// notUnder returns the errors whose key is none of keys nor below one.
func (es Errors) notUnder(keys []string) Errors {
	var out Errors
next:
	for _, e := range es {
		for _, k := range keys {
			if e.Key == k || strings.HasPrefix(e.Key, k+".") || strings.HasPrefix(e.Key, k+"[") {
				continue next
			}
		}
		out = append(out, e)
	}
	return out
}

func (es Errors) sort() {
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].Pos.Line != es[j].Pos.Line {
			return es[i].Pos.Line < es[j].Pos.Line
		}
		return es[i].Pos.Col < es[j].Pos.Col
	})
}

// problems collects errors while a file is checked.
type problems struct {
	file string
	pos  positions
	errs Errors
	// dropped lists the keys whose values were of the wrong type and were
	// left out of the decoding.
	dropped []string
	// offline is set while a stored scenario is read (Options.Offline):
	// it is read as it ran, and the checks of what a new scenario may
	// hold no more (problems.pattern) do not refuse it.
	offline bool
}

// at records an error at the position of key (or of its closest known parent).
func (p *problems) at(key, format string, args ...any) {
	p.errs = append(p.errs, &Error{File: p.file, Pos: p.pos.of(key), Key: key, Msg: fmt.Sprintf(format, args...)})
}

// refusedByRule records an error at key that the current rule refuses
// and an earlier one ran (Error.Rule).
func (p *problems) refusedByRule(key, format string, args ...any) {
	p.at(key, format, args...)
	p.errs[len(p.errs)-1].Rule = true
}

// warn records a warning at the position of key.
func (p *problems) warn(key, format string, args ...any) {
	p.errs = append(p.errs, &Error{File: p.file, Pos: p.pos.of(key), Key: key, Msg: fmt.Sprintf(format, args...), Warning: true})
}

// futile records a warning that makes every outcome inconclusive.
func (p *problems) futile(key, format string, args ...any) {
	p.warn(key, format, args...)
	p.errs[len(p.errs)-1].Futile = true
}

// has reports whether an error was recorded at key or below it.
func (p *problems) has(key string) bool {
	for _, e := range p.errs {
		if e.Key == key || strings.HasPrefix(e.Key, key+".") || strings.HasPrefix(e.Key, key+"[") {
			return true
		}
	}
	return false
}

// positions maps dotted key paths to where their values stand in the file.
type positions map[string]Pos

// of returns the position of key, falling back to its parents, then to the
// start of the file.
func (ps positions) of(key string) Pos {
	for k := key; k != ""; k = parentKey(k) {
		if p, ok := ps[k]; ok {
			return p
		}
	}
	return Pos{Line: 1, Col: 1}
}

func parentKey(k string) string {
	i := strings.LastIndexAny(k, ".[")
	if i < 0 {
		return ""
	}
	return k[:i]
}
