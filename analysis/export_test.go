package analysis

import "github.com/decodebench/decodebench/schema"

// Define adds a rule for a test and returns what takes it away again.
func Define(r Rule) (undo func()) {
	rules[r.Name] = r
	return func() { delete(rules, r.Name) }
}

// Rules are the names of the rules defined.
func Rules() []schema.Rule {
	var out []schema.Rule
	for n := range rules {
		out = append(out, n)
	}
	return out
}
