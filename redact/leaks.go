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
func Leaks(v any) []string {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return nil
	}
	var l leakWalk
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
	path []pathPart
	out  []string
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
		if inClear(v.String()) {
			l.add()
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			l.walk(v.Elem(), field, depth+1)
		}
	case reflect.Struct:
		t := v.Type()
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
		for i := 0; i < v.Len(); i++ {
			l.push(pathPart{index: i})
			l.walk(v.Index(i), "", depth+1)
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
			if val := v.MapIndex(k).String(); env && IsSecretName(k.String()) {
				// An environment: a secret's name masks its value.
				if val != Mask && !isReference(val) {
					l.add()
				}
			} else {
				l.walk(v.MapIndex(k), "", depth+1)
			}
			l.pop()
		}
	}
}

// inClear reports whether s holds a value a secret form finds that is not
// already masked: "Authorization: Bearer [redacted]" is a header masked
// by an older decodebench (today's masks the scheme too), no leak.
func inClear(s string) bool {
	if maskForms(s) == s {
		return false
	}
	for _, v := range formSecrets(s) {
		for _, w := range strings.Fields(strings.ReplaceAll(v, Mask, " ")) {
			w = strings.Trim(w, `"',;`)
			switch strings.ToLower(w) {
			case "", "bearer", "basic", "token", "digest":
				continue
			}
			return true
		}
	}
	return false
}
