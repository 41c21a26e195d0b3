package scenarios

import (
	"encoding"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// decode parses YAML source into dst strictly. It walks the node tree
// against dst's type first, so that every unknown key and every value of the
// wrong type is reported with its line and column (yaml.v3's own strict mode
// stops at lines without columns and cannot name the key path), then decodes
// the values. It also records where each key path stands, so later semantic
// checks can point at the right line.
//
// prepare, when not nil, edits the node tree first (matrix expansion,
// command-line overrides); the problems it records are reported with the
// rest.
func decode(file string, src []byte, dst any, prepare func(*problems, *yaml.Node)) (positions, *problems) {
	p := &problems{file: file, pos: positions{}}
	doc, perr := parseYAML(file, src)
	if perr != nil {
		p.errs = Errors{perr}
		return nil, p
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		p.errs = Errors{{File: file, Pos: Pos{1, 1}, Msg: "empty scenario file"}}
		return nil, p
	}
	root := doc.Content[0]
	if err := checkAliases(file, root); err != nil {
		p.errs = Errors{err}
		return nil, p
	}
	if prepare != nil && root.Kind == yaml.MappingNode {
		prepare(p, root)
	}
	// check reports every unknown key and wrong type and takes the bad
	// nodes out of the tree, so that what remains decodes and the semantic
	// checks still run: every problem of a file is reported in one pass.
	check(p, "", root, reflect.TypeOf(dst).Elem())
	if root.Kind != yaml.MappingNode {
		return nil, p
	}
	if err := root.Decode(dst); err != nil {
		// The walk above should have caught every problem; this is a
		// safety net that still names the file and, where yaml.v3 says
		// it, the line.
		p.errs = append(p.errs, decodeErrors(file, root, err)...)
	}
	return p.pos, p
}

// decodeErrors turns a yaml.v3 decoding error into positioned errors.
func decodeErrors(file string, root *yaml.Node, err error) Errors {
	var msgs []string
	if te, ok := err.(*yaml.TypeError); ok {
		msgs = te.Errors
	} else {
		msgs = []string{strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	var out Errors
	for _, m := range msgs {
		pos := Pos{root.Line, root.Column}
		if rest, ok := strings.CutPrefix(m, "line "); ok {
			if i := strings.Index(rest, ": "); i > 0 {
				if n, err := strconv.Atoi(rest[:i]); err == nil {
					pos, m = Pos{n, firstColumn(root, n)}, rest[i+2:]
				}
			}
		}
		out = append(out, &Error{File: file, Pos: pos, Msg: goTypes.ReplaceAllString(m, "")})
	}
	return out
}

// goTypes are the Go type names yaml.v3 puts in its messages ("field seed
// already set in type scenarios.Schedule"), which name nothing in the file.
var goTypes = regexp.MustCompile(`( in type| into) [\w.*\[\]]+`)

// firstColumn is the column of the first node on line, else 1.
func firstColumn(root *yaml.Node, line int) int {
	var find func(n *yaml.Node) (int, bool)
	find = func(n *yaml.Node) (int, bool) {
		if n.Line == line && n.Kind != yaml.DocumentNode {
			return n.Column, true
		}
		for _, c := range n.Content {
			if col, ok := find(c); ok {
				return col, true
			}
		}
		return 0, false
	}
	if col, ok := find(root); ok {
		return col
	}
	return 1
}

var textUnmarshaler = reflect.TypeOf((*encoding.TextUnmarshaler)(nil)).Elem()

// nodeChecker is implemented by types that accept more than one YAML shape
// (a number or a mapping, a sentence or a one-entry mapping); checkNode
// returns what is wrong with n, or "".
type nodeChecker interface {
	checkNode(n *yaml.Node) string
}

var nodeCheckerType = reflect.TypeOf((*nodeChecker)(nil)).Elem()

// choice is a string type that accepts only some values (see schema's
// enums); Check says what is wrong with one.
type choice interface{ Check() error }

// check validates node against type t and records positions under key. It
// reports false when n cannot be decoded into t; the caller then takes n
// out of the tree, so that the rest of the file still decodes.
func check(p *problems, key string, n *yaml.Node, t reflect.Type) bool {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	p.pos[key] = Pos{n.Line, n.Column}
	fail := func(format string, args ...any) bool {
		p.at(key, format, args...)
		p.dropped = append(p.dropped, key)
		return false
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		switch n.Value {
		case "", "~", "null", "Null", "NULL":
			// An empty value is the key left out: its default applies.
			// Counted as given, it left the zero value, and `max_spread:`
			// switched the spread gate off where its default is 4%.
			delete(p.pos, key)
			return true
		}
		return fail("%q is tagged !!null, which has no value: give it without the tag, or leave the key out", n.Value)
	}
	if msg := badTag(n, t); msg != "" {
		return fail("%s", msg)
	}
	if n.Kind == yaml.MappingNode {
		plainKeys(p, key, n)
		uniqueKeys(p, key, n)
	}
	if reflect.PointerTo(t).Implements(nodeCheckerType) {
		if msg := reflect.New(t).Interface().(nodeChecker).checkNode(n); msg != "" {
			// "max_time: expected a duration" is about the key max_time
			// of this mapping: said on its line, under its name ("until_quiet.min:
			// …" on the nearest line known, until_quiet's).
			if k, rest, ok := strings.Cut(msg, ": "); ok && n.Kind == yaml.MappingNode && !strings.Contains(k, " ") {
				first, _, _ := strings.Cut(k, ".")
				if _, known := p.pos[join(key, first)]; known {
					p.at(join(key, k), "%s", rest)
					p.dropped = append(p.dropped, key)
					return false
				}
			}
			return fail("%s", msg)
		}
		return true
	}
	if reflect.PointerTo(t).Implements(textUnmarshaler) {
		if n.Kind != yaml.ScalarNode {
			return fail("expected a %s, got %s", typeName(t), kindName(n))
		}
		v := reflect.New(t).Interface().(encoding.TextUnmarshaler)
		if err := v.UnmarshalText([]byte(n.Value)); err != nil {
			return fail("invalid %s %q: %v", typeName(t), n.Value, trimErr(err))
		}
		return true
	}
	switch t.Kind() {
	case reflect.Pointer:
		return check(p, key, n, t.Elem())
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			return fail("expected a mapping, got %s", kindName(n))
		}
		fields := map[string]reflect.StructField{}
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := strings.Split(f.Tag.Get("yaml"), ",")[0]
			if tag == "" || tag == "-" {
				continue
			}
			fields[tag] = f
		}
		keep := n.Content[:0:0]
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			sub := join(key, k.Value)
			f, ok := fields[k.Value]
			if !ok {
				p.pos[sub] = Pos{k.Line, k.Column}
				p.at(sub, "unknown key %q%s", k.Value, suggest(k.Value, fields))
				continue
			}
			if check(p, sub, v, f.Type) {
				keep = append(keep, k, v)
			}
		}
		n.Content = keep
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			return fail("expected a list, got %s", kindName(n))
		}
		for i, c := range n.Content {
			if !check(p, fmt.Sprintf("%s[%d]", key, i), c, t.Elem()) {
				n.Content[i] = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Line: c.Line, Column: c.Column}
			}
		}
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			return fail("expected a mapping, got %s", kindName(n))
		}
		keep := n.Content[:0:0]
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if check(p, join(key, k.Value), v, t.Elem()) {
				keep = append(keep, k, v)
			}
		}
		n.Content = keep
	case reflect.String:
		if n.Kind != yaml.ScalarNode {
			return fail("expected a string, got %s", kindName(n))
		}
		if c, ok := reflect.ValueOf(n.Value).Convert(t).Interface().(choice); ok {
			if err := c.Check(); err != nil {
				return fail("%v", err)
			}
		}
	case reflect.Int, reflect.Int64:
		if n.Kind != yaml.ScalarNode || n.Tag != "!!int" {
			return fail("expected an integer, got %s", kindName(n))
		}
		if n.Decode(reflect.New(t).Interface()) != nil {
			return fail("integer %s is out of range (at most %d)", n.Value, int64(1)<<(t.Bits()-1)-1)
		}
	case reflect.Float64:
		if n.Kind != yaml.ScalarNode || (n.Tag != "!!int" && n.Tag != "!!float") {
			return fail("expected a number, got %s", kindName(n))
		}
		if n.Decode(reflect.New(t).Interface()) != nil {
			return fail("number %s is out of range", n.Value)
		}
	case reflect.Bool:
		if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
			return fail("expected true or false, got %s", kindName(n))
		}
	default:
		return fail("internal: unsupported field type %s", t)
	}
	return true
}

// uniqueKeys reports each repeated key of mapping n at the repeat's own
// line and column, and takes the repeats out (yaml.v3 would refuse the
// whole mapping at decode time, with only a line).
func uniqueKeys(p *problems, key string, n *yaml.Node) {
	seen := map[string]bool{}
	keep := n.Content[:0:0]
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if seen[k.Value] {
			sub := join(key, k.Value)
			p.at(sub, "duplicate key (first given at line %d)", p.pos.of(sub).Line)
			p.errs[len(p.errs)-1].Pos = Pos{k.Line, k.Column}
			continue
		}
		seen[k.Value] = true
		p.pos[join(key, k.Value)] = Pos{k.Line, k.Column}
		keep = append(keep, k, n.Content[i+1])
	}
	n.Content = keep
}

func join(key, k string) string {
	if key == "" {
		return k
	}
	return key + "." + k
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!int":
			return "integer " + n.Value
		case "!!float":
			return "number " + n.Value
		case "!!bool":
			return "boolean " + n.Value
		case "!!null":
			return "nothing"
		}
		return fmt.Sprintf("%q", n.Value)
	}
	return "an unexpected node"
}

func typeName(t reflect.Type) string {
	switch t.Name() {
	case "Duration":
		return "duration (e.g. 2s, 500ms)"
	case "Concurrency":
		return "concurrency (a number of streams)"
	}
	return t.Name()
}

func trimErr(err error) string {
	s := err.Error()
	if i := strings.LastIndex(s, ": "); i >= 0 {
		return s[i+2:]
	}
	return s
}

// suggest returns ` (did you mean "x"?)` when an unknown key is a near miss.
func suggest(k string, fields map[string]reflect.StructField) string {
	best, bestD := "", 3
	for name := range fields {
		if d := editDistance(k, name); d < bestD || (d == bestD && best != "" && name < best) {
			best, bestD = name, d
		}
	}
	if best == "" {
		names := make([]string, 0, len(fields))
		for name := range fields {
			names = append(names, name)
		}
		sortStrings(names)
		return "; known keys: " + strings.Join(names, ", ")
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
