package scenarios

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// A sweep is written as one entry of arms that carries a matrix: a
// mapping of parameter names to lists of values. It is an arm template:
// it is expanded at load, before anything is checked, into one arm per
// combination of the values, with ${NAME} of each parameter replaced in
// every value of the template (name, args, env values):
//
//	arms:
//	  - name: classic
//	    args: [--spec-type, none]
//	  - matrix:
//	      block: [2, 3, 4]
//	      threads: [1, 2]
//	    name: "mtp-b${block}-t${threads}"
//	    args: [--draft-block-size, "${block}", -t, "${threads}"]
//
// gives classic, mtp-b2-t1, mtp-b2-t2, mtp-b3-t1, … mtp-b4-t2, in that
// order: the parameters vary like nested loops in the order written, the
// last fastest, and the generated arms stand where the template stood.
// Every problem of a generated arm is reported at the template's line and
// column. The name must use every parameter that has more than one value,
// so that generated names cannot collide; a name that still collides with
// another arm is refused like any duplicate. The arms of all templates and
// the plain ones together may not pass MaxArms.
//
// Elsewhere, an arm name in counters' expect may be a glob (path.Match:
// "mtp-*", "mtp-b?-t1"): it stands for every arm it matches that has no
// expectation of its own. A glob that matches no arm is an error, and so
// is an arm matched by two globs.

var matrixParamRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// atNode records an error at key, placed at node n.
func (p *problems) atNode(key string, n *yaml.Node, format string, args ...any) {
	if _, ok := p.pos[key]; !ok {
		p.pos[key] = Pos{n.Line, n.Column}
	}
	p.at(key, format, args...)
}

// expandMatrix replaces every arm template of root's arms list by the arms
// it generates.
func expandMatrix(p *problems, root *yaml.Node) {
	arms := mapValue(root, "arms")
	if arms == nil || arms.Kind != yaml.SequenceNode {
		return
	}
	// First pass: how many arms each entry gives, so that a sweep too large
	// is refused before anything is built.
	type sweep struct {
		params []string
		values [][]*yaml.Node
		n      int
	}
	sweeps := make([]*sweep, len(arms.Content))
	total := 0
	for i, a := range arms.Content {
		mk, mv := mapEntry(a, "matrix")
		if mk == nil {
			total++
			continue
		}
		key := fmt.Sprintf("arms[%d].matrix", i)
		sw := &sweep{n: 1}
		sweeps[i] = sw
		if mv.Kind != yaml.MappingNode || len(mv.Content) == 0 {
			p.atNode(key, mv, "expected a mapping of parameter names to lists of values, e.g. {block: [2, 3, 4]}")
			sw.n = 0
			continue
		}
		for j := 0; j+1 < len(mv.Content); j += 2 {
			k, v := mv.Content[j], mv.Content[j+1]
			pk := key + "." + k.Value
			switch {
			case !matrixParamRE.MatchString(k.Value) || k.Value == PortVar:
				p.atNode(pk, k, "%q: a parameter name is letters, digits and '_' (not PORT), used as ${%s} in the template", k.Value, k.Value)
				sw.n = 0
			case contains(sw.params, k.Value):
				p.atNode(pk, k, "duplicate parameter")
				sw.n = 0
			case v.Kind != yaml.SequenceNode || len(v.Content) == 0:
				p.atNode(pk, v, "expected a non-empty list of values, got %s", kindName(v))
				sw.n = 0
			default:
				for l, x := range v.Content {
					if x.Kind != yaml.ScalarNode || x.Tag == "!!null" {
						p.atNode(fmt.Sprintf("%s[%d]", pk, l), x, "expected a value (a number or a string), got %s", kindName(x))
						sw.n = 0
					}
				}
				sw.params = append(sw.params, k.Value)
				sw.values = append(sw.values, v.Content)
				if sw.n > 0 {
					sw.n *= len(v.Content)
				}
			}
			if sw.n > MaxArms {
				sw.n = MaxArms + 1 // no overflow, still too many
			}
		}
		if sw.n == 0 {
			continue
		}
		if k := nodesIn(a, maxExpandedNodes); k*sw.n > maxExpandedNodes {
			// Every arm the sweep gives is a copy of its template: 99,500
			// args in 63 arms took validate 45 s and 2.5 GB.
			p.atNode(key, mk, "the sweep gives %s arms of a template of %d YAML nodes, more than the %d nodes a scenario may expand to", sweepCount(sw.n), k, maxExpandedNodes)
			sw.n = 0
			continue
		}
		if total += sw.n; total > MaxArms {
			p.atNode(key, mk, "the sweep gives %s arms; with the arms before it that is more than the limit of %d arms", sweepCount(sw.n), MaxArms)
			sw.n = 0
			continue
		}
		_, name := mapEntry(a, "name")
		if name == nil || name.Kind != yaml.ScalarNode {
			continue // reported as a missing name of the generated arms
		}
		for j, param := range sw.params {
			if len(sw.values[j]) > 1 && !strings.Contains(name.Value, "${"+param+"}") {
				p.atNode(fmt.Sprintf("arms[%d].name", i), name, "the name of a matrix template must use ${%s}, or the generated arms' names collide", param)
				sw.n = 0
				break
			}
		}
	}
	var out []*yaml.Node
	for i, a := range arms.Content {
		sw := sweeps[i]
		switch {
		case sw == nil:
			out = append(out, a)
			continue
		case sw.n == 0:
			// Reported; what the checks would say about the arms without
			// it (too few, a glob matching none) is noise beside it.
			p.dropped = append(p.dropped, "arms")
			continue
		}
		idx := make([]int, len(sw.params))
		for {
			vals := map[string]string{}
			for j, param := range sw.params {
				vals[param] = sw.values[j][idx[j]].Value
			}
			out = append(out, instantiate(a, vals))
			// The next combination: the last parameter fastest.
			j := len(idx) - 1
			for ; j >= 0; j-- {
				if idx[j]++; idx[j] < len(sw.values[j]) {
					break
				}
				idx[j] = 0
			}
			if j < 0 {
				break
			}
		}
	}
	arms.Content = out
}

// instantiate copies template t without its matrix key, with ${param}
// replaced in every scalar value. The copies keep the template's lines and
// columns.
func instantiate(t *yaml.Node, vals map[string]string) *yaml.Node {
	cp := *t
	cp.Anchor = ""
	cp.Content = nil
	for i := 0; i+1 < len(t.Content); i += 2 {
		if t.Content[i].Value == "matrix" {
			continue
		}
		k := *t.Content[i]
		cp.Content = append(cp.Content, &k, substitute(t.Content[i+1], vals))
	}
	return &cp
}

func substitute(n *yaml.Node, vals map[string]string) *yaml.Node {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	cp := *n
	cp.Anchor = ""
	if n.Kind == yaml.ScalarNode {
		cp.Value = varRef.ReplaceAllStringFunc(n.Value, func(m string) string {
			if v, ok := vals[varRef.FindStringSubmatch(m)[1]]; ok {
				return v
			}
			return m
		})
		return &cp
	}
	cp.Content = make([]*yaml.Node, len(n.Content))
	for i, c := range n.Content {
		if n.Kind == yaml.MappingNode && i%2 == 0 {
			k := *c
			cp.Content[i] = &k
			continue
		}
		cp.Content[i] = substitute(c, vals)
	}
	return &cp
}

// mapEntry returns the key and value nodes of key in mapping m.
func mapEntry(m *yaml.Node, key string) (k, v *yaml.Node) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i], m.Content[i+1]
		}
	}
	return nil, nil
}

func mapValue(m *yaml.Node, key string) *yaml.Node {
	_, v := mapEntry(m, key)
	return v
}

// isGlob reports whether an arm name in expect is a pattern: arm names
// themselves hold none of its special characters.
func isGlob(name string) bool { return strings.ContainsAny(name, "*?[") }

// expandGlobs replaces the glob keys of counters' expect by the arms they
// match, each with the glob's expectation and position.
func (s *Scenario) expandGlobs(p *problems) {
	for i := range s.Counters {
		c := &s.Counters[i]
		var globs []string
		for k := range c.Expect {
			if isGlob(k) {
				globs = append(globs, k)
			}
		}
		if len(globs) == 0 {
			continue
		}
		sort.Strings(globs)
		key := fmt.Sprintf("counters[%d].expect", i)
		by := map[string]string{} // arm → the glob that gave it
		for _, g := range globs {
			gk := key + "." + g
			ex := c.Expect[g]
			delete(c.Expect, g)
			if _, err := path.Match(g, ""); err != nil {
				p.at(gk, "invalid pattern %q: %v", g, err)
				continue
			}
			matched := false
			for _, a := range s.Arms {
				if ok, _ := path.Match(g, a.Name); !ok || a.Name == "" {
					continue
				}
				matched = true
				if _, own := c.Expect[a.Name]; own && by[a.Name] == "" {
					continue // the arm's own expectation wins
				}
				if other := by[a.Name]; other != "" {
					p.at(gk, "arm %q is matched by %q too: give it its own expectation", a.Name, other)
					continue
				}
				by[a.Name] = g
				c.Expect[a.Name] = ex
				p.pos[key+"."+a.Name] = p.pos.of(gk)
			}
			if !matched && !contains(p.dropped, "arms") {
				p.at(gk, "%q matches no arm (arms: %s)", g, strings.Join(s.ArmNames(), ", "))
			}
		}
	}
}

// nodesIn counts the nodes of n, aliases followed, up to most.
func nodesIn(n *yaml.Node, most int) int {
	count := 0
	var walk func(*yaml.Node, int)
	walk = func(n *yaml.Node, depth int) {
		if n == nil || count > most || depth > 1000 {
			return
		}
		count++
		if n.Kind == yaml.AliasNode {
			walk(n.Alias, depth+1)
		}
		for _, c := range n.Content {
			walk(c, depth+1)
		}
	}
	walk(n, 0)
	return count
}

// sweepCount is a sweep's number of arms as a message states it: the
// count stops past MaxArms ("more than 64").
func sweepCount(n int) string {
	if n > MaxArms {
		return fmt.Sprintf("more than %d", MaxArms)
	}
	return fmt.Sprint(n)
}
