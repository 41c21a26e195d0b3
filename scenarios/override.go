package scenarios

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Overrides (`decodebench run --set key=value`, `--rounds N`) change a
// scenario's scalars for a quick look without editing the file. They are
// applied to the YAML node tree after matrix expansion and before anything
// is decoded, so a value set this way is checked exactly like one written
// in the file, and it changes the scenario's Hash: an overridden campaign
// is a different campaign. The key is the value's dotted path, with [N]
// for list items: schedule.cooldown, engine.request.max_tokens,
// vars.MODEL_DIR, arms[1].args[0]. A key the scenario leaves out is added
// when the scenario format knows it; an unknown key is an error naming it.
// Only scalars are set: a key whose value is a mapping or a list is refused,
// except where the format accepts a scalar in its place (schedule.rounds).

// RoundsOverride is the override that --rounds N stands for.
func RoundsOverride(n int) string { return fmt.Sprintf("schedule.rounds=%d", n) }

// overrideKey is where problems of the command line's overrides are
// reported: they have no place in the file.
const overrideKey = "--set"

// applyOverrides applies each key=value of set to root.
func applyOverrides(p *problems, root *yaml.Node, set []string) (applied []string, keys map[string]string) {
	keys = map[string]string{}
	for _, kv := range set {
		key, val, ok := strings.Cut(kv, "=")
		key = strings.TrimSpace(key)
		if !ok || key == "" {
			p.overrideErr("%q: expected PATH=VALUE (PATH a key's dotted path), e.g. schedule.cooldown=0s", kv)
			continue
		}
		if msg := setScalar(root, key, val); msg != "" {
			p.overrideErr("%s: %s", kv, msg)
			continue
		}
		applied = append(applied, key+"="+val)
		keys[canonicalKey(key)] = key + "=" + val
	}
	return applied, keys
}

func (p *problems) overrideErr(format string, args ...any) {
	p.errs = append(p.errs, &Error{File: p.file, Key: overrideKey, Msg: fmt.Sprintf(format, args...)})
}

// canonicalKey writes a key the way positions and errors do.
func canonicalKey(key string) string {
	segs, _ := splitKey(key)
	var b strings.Builder
	for _, s := range segs {
		switch {
		case s.index >= 0:
			fmt.Fprintf(&b, "[%d]", s.index)
		case b.Len() > 0:
			b.WriteString("." + s.name)
		default:
			b.WriteString(s.name)
		}
	}
	return b.String()
}

type keySeg struct {
	name  string
	index int // -1 for a mapping key
}

// splitKey parses "arms[1].args[0]" into its steps.
func splitKey(key string) ([]keySeg, string) {
	var out []keySeg
	for _, part := range strings.Split(key, ".") {
		name, rest, _ := strings.Cut(part, "[")
		if name == "" && len(out) == 0 || name == "" && rest == "" {
			return nil, fmt.Sprintf("empty part in key %q", key)
		}
		if name != "" {
			out = append(out, keySeg{name: name, index: -1})
		}
		for rest != "" {
			num, after, ok := strings.Cut(rest, "]")
			i, err := strconv.Atoi(num)
			if !ok || err != nil || i < 0 {
				return nil, fmt.Sprintf("bad index in key %q", key)
			}
			out = append(out, keySeg{index: i})
			if after == "" {
				break
			}
			if !strings.HasPrefix(after, "[") {
				return nil, fmt.Sprintf("bad index in key %q", key)
			}
			rest = after[1:]
		}
	}
	return out, ""
}

var scenarioType = reflect.TypeOf(Scenario{})

// setScalar sets the scalar at key; it returns what is wrong, or "".
func setScalar(root *yaml.Node, key, val string) string {
	segs, msg := splitKey(key)
	if msg != "" {
		return msg
	}
	n, t := root, scenarioType
	path := ""
	for i, s := range segs {
		last := i == len(segs)-1
		if n.Kind == yaml.AliasNode && n.Alias != nil {
			n = n.Alias
		}
		var child *yaml.Node
		if s.index >= 0 {
			path += fmt.Sprintf("[%d]", s.index)
			if t.Kind() != reflect.Slice || n.Kind != yaml.SequenceNode {
				return fmt.Sprintf("%s is not a list", path)
			}
			if s.index >= len(n.Content) {
				return fmt.Sprintf("%s: no such item (the list has %d)", path, len(n.Content))
			}
			t = t.Elem()
			child = n.Content[s.index]
			if last {
				return replace(n, s.index, child, t, path, val)
			}
		} else {
			if t.Kind() == reflect.Slice {
				return fmt.Sprintf("%s is a list: give an item's index, e.g. %s[0].%s", path, path, s.name)
			}
			path = join(path, s.name)
			ft, known, fields := fieldType(t, s.name)
			if !known {
				return fmt.Sprintf("unknown key %q%s", path, suggestIn(s.name, fields))
			}
			t = ft
			if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
				*n = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: n.Line, Column: n.Column}
			}
			if n.Kind != yaml.MappingNode {
				return fmt.Sprintf("%s is %s, not a mapping", parentKey(path), kindName(n))
			}
			j := -1
			for k := 0; k+1 < len(n.Content); k += 2 {
				if n.Content[k].Value == s.name {
					j = k + 1
				}
			}
			if j < 0 {
				// Absent: added, placed at the mapping that holds it.
				kn := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s.name, Line: n.Line, Column: n.Column}
				vn := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Line: n.Line, Column: n.Column}
				n.Content = append(n.Content, kn, vn)
				j = len(n.Content) - 1
			}
			child = n.Content[j]
			if last {
				return replace(n, j, child, t, path, val)
			}
		}
		n = child
	}
	return ""
}

// replace sets parent.Content[i] (old) to a scalar of val.
func replace(parent *yaml.Node, i int, old *yaml.Node, t reflect.Type, path, val string) string {
	if old.Kind == yaml.AliasNode && old.Alias != nil {
		old = old.Alias
	}
	if old.Kind != yaml.ScalarNode && !reflect.PointerTo(t).Implements(nodeCheckerType) {
		return fmt.Sprintf("%s is %s: --set sets single values; set the items or fields inside it", path, kindName(old))
	}
	if k := t.Kind(); (k == reflect.Struct || k == reflect.Map || k == reflect.Slice) &&
		!reflect.PointerTo(t).Implements(nodeCheckerType) && !reflect.PointerTo(t).Implements(textUnmarshaler) {
		return fmt.Sprintf("%s holds a %s, not a single value", path, map[reflect.Kind]string{reflect.Struct: "mapping", reflect.Map: "mapping", reflect.Slice: "list"}[k])
	}
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: val, Line: old.Line, Column: old.Column}
	// The value's type as YAML would read it: 32 is an integer, 0s a
	// string, true a boolean.
	var doc yaml.Node
	if yaml.Unmarshal([]byte(val), &doc) == nil && len(doc.Content) == 1 && doc.Content[0].Kind == yaml.ScalarNode {
		n.Tag, n.Value, n.Style = doc.Content[0].Tag, doc.Content[0].Value, doc.Content[0].Style&yaml.TaggedStyle
	}
	parent.Content[i] = n
	return ""
}

// fieldType returns the type of key under t (a struct's yaml field or a
// map's element).
func fieldType(t reflect.Type, key string) (reflect.Type, bool, []string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Map:
		return t.Elem(), true, nil
	case reflect.Struct:
		var names []string
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := strings.Split(f.Tag.Get("yaml"), ",")[0]
			if tag == "" || tag == "-" {
				continue
			}
			if tag == key {
				return f.Type, true, nil
			}
			names = append(names, tag)
		}
		return nil, false, names
	}
	return nil, false, nil
}

func suggestIn(k string, names []string) string {
	if len(names) == 0 {
		return ""
	}
	fields := map[string]reflect.StructField{}
	for _, n := range names {
		fields[n] = reflect.StructField{}
	}
	return suggest(k, fields)
}

// markOverridden adds to each error at an overridden key where its value
// came from.
func markOverridden(es Errors, keys map[string]string) {
	for _, e := range es {
		if kv, ok := keys[e.Key]; ok {
			e.Msg += fmt.Sprintf(" (value from --set %s)", kv)
		}
	}
}
