package scenarios

import (
	"encoding"
	"fmt"
	"reflect"
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
func decode(file string, src []byte, dst any) (positions, Errors) {
	p := &problems{file: file, pos: positions{}}
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		line := 0
		msg := err.Error()
		// yaml.v3 syntax errors read "yaml: line N: message".
		if rest, ok := strings.CutPrefix(msg, "yaml: line "); ok {
			if i := strings.Index(rest, ":"); i > 0 {
				if n, err := strconv.Atoi(rest[:i]); err == nil {
					line = n
					msg = strings.TrimSpace(rest[i+1:])
				}
			}
		} else {
			msg = strings.TrimPrefix(msg, "yaml: ")
		}
		pos := Pos{}
		if line > 0 {
			pos = Pos{Line: line, Col: 1}
		}
		return nil, Errors{{File: file, Pos: pos, Msg: "invalid YAML: " + msg}}
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, Errors{{File: file, Pos: Pos{1, 1}, Msg: "empty scenario file"}}
	}
	root := doc.Content[0]
	check(p, "", root, reflect.TypeOf(dst).Elem())
	if len(p.errs) > 0 {
		p.errs.sort()
		return p.pos, p.errs
	}
	if err := root.Decode(dst); err != nil {
		// The walk above should have caught every type problem; this is a
		// safety net that still names the file.
		return p.pos, Errors{{File: file, Pos: Pos{root.Line, root.Column}, Msg: err.Error()}}
	}
	return p.pos, nil
}

var textUnmarshaler = reflect.TypeOf((*encoding.TextUnmarshaler)(nil)).Elem()

// nodeChecker is implemented by types that accept more than one YAML shape
// (a number or a mapping, a sentence or a one-entry mapping); checkNode
// returns what is wrong with n, or "".
type nodeChecker interface {
	checkNode(n *yaml.Node) string
}

var nodeCheckerType = reflect.TypeOf((*nodeChecker)(nil)).Elem()

// check validates node against type t and records positions under key.
func check(p *problems, key string, n *yaml.Node, t reflect.Type) {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	p.pos[key] = Pos{n.Line, n.Column}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return // an empty value leaves the zero value
	}
	if reflect.PointerTo(t).Implements(nodeCheckerType) {
		if msg := reflect.New(t).Interface().(nodeChecker).checkNode(n); msg != "" {
			p.at(key, "%s", msg)
		}
		return
	}
	if reflect.PointerTo(t).Implements(textUnmarshaler) {
		if n.Kind != yaml.ScalarNode {
			p.at(key, "expected a %s, got %s", typeName(t), kindName(n))
			return
		}
		v := reflect.New(t).Interface().(encoding.TextUnmarshaler)
		if err := v.UnmarshalText([]byte(n.Value)); err != nil {
			p.at(key, "invalid %s %q: %v", typeName(t), n.Value, trimErr(err))
		}
		return
	}
	switch t.Kind() {
	case reflect.Pointer:
		check(p, key, n, t.Elem())
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			p.at(key, "expected a mapping, got %s", kindName(n))
			return
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
		seen := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			sub := join(key, k.Value)
			if seen[k.Value] {
				p.pos[sub] = Pos{k.Line, k.Column}
				p.at(sub, "duplicate key")
				continue
			}
			seen[k.Value] = true
			f, ok := fields[k.Value]
			if !ok {
				p.pos[sub] = Pos{k.Line, k.Column}
				p.at(sub, "unknown key %q%s", k.Value, suggest(k.Value, fields))
				continue
			}
			check(p, sub, v, f.Type)
		}
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			p.at(key, "expected a list, got %s", kindName(n))
			return
		}
		for i, c := range n.Content {
			check(p, fmt.Sprintf("%s[%d]", key, i), c, t.Elem())
		}
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			p.at(key, "expected a mapping, got %s", kindName(n))
			return
		}
		seen := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			sub := join(key, k.Value)
			if seen[k.Value] {
				p.pos[sub] = Pos{k.Line, k.Column}
				p.at(sub, "duplicate key")
				continue
			}
			seen[k.Value] = true
			check(p, sub, v, t.Elem())
		}
	case reflect.String:
		if n.Kind != yaml.ScalarNode {
			p.at(key, "expected a string, got %s", kindName(n))
		}
	case reflect.Int, reflect.Int64:
		if n.Kind != yaml.ScalarNode || n.Tag != "!!int" {
			p.at(key, "expected an integer, got %s", kindName(n))
		}
	case reflect.Float64:
		if n.Kind != yaml.ScalarNode || (n.Tag != "!!int" && n.Tag != "!!float") {
			p.at(key, "expected a number, got %s", kindName(n))
		}
	case reflect.Bool:
		if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
			p.at(key, "expected true or false, got %s", kindName(n))
		}
	default:
		p.at(key, "internal: unsupported field type %s", t)
	}
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
	if t.Name() == "Duration" {
		return "duration (e.g. 2s, 500ms)"
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
