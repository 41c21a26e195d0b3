package redact

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Leaks lists where v (a pointer to a record, say) holds what a Redactor
// that has learned nothing would mask: a string a secret form matches, a
// command line's credential flag, an environment variable whose name says
// it holds a secret, with a value that is not masked. Each is named by
// its path (JSON field names, list indices and map keys), never by its
// value. decodebench masks all of them as it writes a record; a record
// another tool or an older decodebench wrote, or one edited by hand, may
// hold one in clear.
//
// placeholders are values that stand for a secret without holding it
// (Mask is one): a record's "(from the environment)", say.
func Leaks(v any, placeholders ...string) []string {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return nil
	}
	l := leakWalk{placeholders: append(placeholders, Mask)}
	l.walk(rv.Elem(), "", 0)
	return l.out
}

// maxLeaks bounds the paths Leaks lists: a record of thousands of runs
// holding one secret in each would list every one.
const maxLeaks = 20

// leakWalk is Leaks' walk: the path is kept as its parts, joined only for
// a place it lists (a record of thousands of runs has millions of
// strings).
type leakWalk struct {
	path         []pathPart
	out          []string
	placeholders []string
}

// secretValue reports whether val, the value of a variable or setting
// named name, is a secret in clear: its name says it holds one, and it is
// no placeholder and no reference.
func (l *leakWalk) secretValue(name, val string) bool {
	return IsSecretName(name) && val != "" && !slices.Contains(l.placeholders, val) && !onlyReferences(val) && !namesSecrets(val)
}

// pathPart is a field's name, or a list's index (name empty), or a map's
// key (key true).
type pathPart struct {
	name  string
	index int
	key   bool
}

func (l *leakWalk) add() {
	var b strings.Builder
	for _, p := range l.path {
		switch {
		case p.key:
			b.WriteString("[" + p.name + "]")
		case p.name == "":
			fmt.Fprintf(&b, "[%d]", p.index)
		default:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(p.name)
		}
	}
	l.out = append(l.out, b.String())
}

func (l *leakWalk) push(p pathPart) { l.path = append(l.path, p) }
func (l *leakWalk) pop()            { l.path = l.path[:len(l.path)-1] }

// walk visits v; field is the Go name of the struct field v is, for the
// command lines (Command, Args) and environments (Env) it reads as such.
func (l *leakWalk) walk(v reflect.Value, field string, depth int) {
	if depth > maxDepth || len(l.out) >= maxLeaks {
		return
	}
	switch v.Kind() {
	case reflect.String:
		if inClear(v.String()) || field == "Overrides" && l.secretOverride(v.String()) {
			l.add()
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			l.walk(v.Elem(), field, depth+1)
		}
	case reflect.Struct:
		t := v.Type()
		if n, val := v.FieldByName("Name"), v.FieldByName("Value"); n.IsValid() && val.IsValid() && n.Kind() == reflect.String && val.Kind() == reflect.String &&
			l.secretValue(n.String(), val.String()) {
			// A variable: a secret's name masks its value.
			l.add()
			return
		}
		for i := 0; i < v.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			l.push(pathPart{name: name})
			l.walk(v.Field(i), f.Name, depth+1)
			l.pop()
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		if field == "Command" || field == "Args" {
			if args, ok := v.Interface().([]string); ok {
				// A command line: a flag's value is its own argument.
				if masked, _ := maskArgs(args); !slices.Equal(masked, args) {
					l.add()
					return
				}
			}
		}
		elem := ""
		if field == "Overrides" {
			elem = field // each a --set PATH=VALUE
		}
		for i := 0; i < v.Len(); i++ {
			l.push(pathPart{index: i})
			l.walk(v.Index(i), elem, depth+1)
			l.pop()
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
		env := field == "Env" && v.Type().Key().Kind() == reflect.String && v.Type().Elem().Kind() == reflect.String
		for _, k := range keys {
			l.push(pathPart{name: fmt.Sprint(k), key: true})
			if env && IsSecretName(k.String()) {
				// An environment: a secret's name masks its value.
				if l.secretValue(k.String(), v.MapIndex(k).String()) {
					l.add()
				}
			} else {
				l.walk(v.MapIndex(k), "", depth+1)
			}
			l.pop()
		}
	}
}

// secretOverride reports whether a --set PATH=VALUE sets a secret-named
// key (an environment's, a variable's) to a value in clear.
func (l *leakWalk) secretOverride(s string) bool {
	path, val, ok := strings.Cut(s, "=")
	if !ok {
		return false
	}
	return l.secretValue(path[strings.LastIndexAny(path, ".]")+1:], val)
}

// inClear reports whether s holds a value a secret form or curl's
// credential flag finds that is not already masked: "Authorization:
// Bearer [redacted]" is a header masked by an older decodebench (today's
// masks the scheme too), no leak.
func inClear(s string) bool {
	if maskForms(s) == s {
		return false
	}
	if strings.Contains(s, "curl") && credentialFlag.MatchString(s) {
		for _, e := range curlEdits(s, nil) {
			if unmasked(s[e.from:e.to]) {
				return true
			}
		}
	}
	var p probe
	leak := false
	for _, f := range forms {
		replaceGroup(f, s, &p, func(v string) string {
			leak = leak || unmasked(v)
			return v
		})
		if leak {
			return true
		}
	}
	return false
}

// unmasked reports whether v, a value a form found, holds more than masks
// and an authorization scheme's name.
func unmasked(v string) bool {
	for _, w := range strings.Fields(strings.ReplaceAll(v, Mask, " ")) {
		switch strings.ToLower(strings.Trim(w, `"',;`)) {
		case "", "bearer", "basic", "token", "digest":
			continue
		}
		return true
	}
	return false
}
