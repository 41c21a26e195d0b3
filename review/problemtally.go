package review

import "fmt"

// problemTally keeps the first problem of each kind (an arm's launches,
// the runs' times) and counts the runs that have it too: one edit made to
// every run (an arm's command, a shift of every time) is one problem,
// named at its first run, not a page of alike lines.
type problemTally struct {
	order []string
	first map[string]Problem
	more  map[string]int
}

// add keeps p as kind's problem, or counts it where kind has one.
func (t *problemTally) add(kind string, p Problem) {
	if t.first == nil {
		t.first, t.more = map[string]Problem{}, map[string]int{}
	}
	if _, ok := t.first[kind]; ok {
		t.more[kind]++
		return
	}
	t.order = append(t.order, kind)
	t.first[kind] = p
}

// problems are the problems kept, in the order they came, each saying
// how many more runs have it.
func (t *problemTally) problems() []Problem {
	var out []Problem
	for _, k := range t.order {
		p := t.first[k]
		if n := t.more[k]; n > 0 {
			p.Message += fmt.Sprintf(" (and %d more run(s) alike)", n)
		}
		out = append(out, p)
	}
	return out
}
