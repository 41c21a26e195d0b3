package recorder

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/decodebench/decodebench/schema"
)

// LineCost is what the run of a runs.jsonl line would hold in memory once
// decoded, as RunCost (its tests' reflect walk of the decoded run)
// counts it, read from the line's bytes without
// decoding it: each object, array, member and string is costed as the
// schema.Run field it fills decodes it (a struct's size where a slice or
// a pointer holds it, a map's slots, a slice's elements, a string's
// bytes). A reader refuses a line before decoding it when this passes
// MemoryPerByte times its length and RunOverhead, so that no line, up to
// its 64 MiB, is decoded to gigabytes first (16 MiB of `{},` in a run's
// requests decoded to 827 MB, with 2.4 GB at the peak, and was refused
// after). A value no field takes (an unknown field, which decoding then
// refuses) costs its strings alone; the scan goes no deeper than the
// decoder does (10,000 levels).
func LineCost(line []byte) int64 {
	s := costScan{b: line}
	s.ws()
	s.value(runType, true, 0)
	return s.cost
}

var (
	runType  = reflect.TypeFor[schema.Run]()
	timeType = reflect.TypeFor[time.Time]()
)

// maxScanDepth is encoding/json's own nesting bound: a deeper line is
// refused by the decoder.
const maxScanDepth = 10000

type costScan struct {
	b    []byte
	i    int
	cost int64
	// generic costs the line as a reader into any decodes it (maps of
	// interfaces, slices of interfaces, boxed numbers), the types unused.
	generic bool
}

// GenericCost is what the line would hold decoded into any (readsAlike's
// comparison of a line not as decodebench writes it): each object a map
// of interfaces, each array a slice of them, each number boxed.
func GenericCost(line []byte) int64 {
	s := costScan{b: line, generic: true}
	s.ws()
	s.value(nil, true, 0)
	return s.cost
}

// Sizes of a value decoded into any: an interface, a map entry's slots
// (a string key and an interface, at twice the entries), a map's header,
// a boxed number.
const (
	anySize      = 16
	anyEntrySize = 2 * (16 + anySize + 1)
	anyMapSize   = 48
	anyBoxSize   = 8
)

func (s *costScan) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// value costs the value at s.i as t decodes it (nil: no field takes it);
// top: t is held by nothing that counted its size (the run itself).
func (s *costScan) value(t reflect.Type, top bool, depth int) {
	if s.i >= len(s.b) || depth > maxScanDepth {
		s.i = len(s.b)
		return
	}
	if t != nil && t.Kind() == reflect.Pointer && s.b[s.i] != 'n' {
		t = t.Elem()
		top = true
	}
	if t == timeType {
		t = nil // nothing beyond its size held: its location is shared
		if s.b[s.i] == '"' {
			s.skipString(false)
			return
		}
	}
	if top && t != nil {
		s.cost += int64(t.Size())
	}
	switch c := s.b[s.i]; {
	case c == '{':
		s.object(t, depth)
	case c == '[':
		s.array(t, depth)
	case c == '"':
		if s.generic {
			s.cost += 16 // the string's header, its interface pointing to it
		}
		s.skipString(t == nil || t.Kind() == reflect.String)
	default:
		if s.generic && (c == '-' || c >= '0' && c <= '9') {
			s.cost += anyBoxSize
		}
		for s.i < len(s.b) {
			c := s.b[s.i]
			if c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r' {
				break
			}
			s.i++
		}
	}
}

// skipString moves past the string at s.i (a '"'), its raw bytes costed
// when held.
func (s *costScan) skipString(held bool) {
	start := s.i + 1
	s.i++
	for s.i < len(s.b) {
		k := bytes.IndexAny(s.b[s.i:], `"\\`)
		if k < 0 {
			s.i = len(s.b)
			return
		}
		s.i += k
		if s.b[s.i] == '\\' {
			s.i += 2
			continue
		}
		if held {
			s.cost += int64(s.i - start)
		}
		s.i++
		return
	}
}

// key reads a member's name at s.i, unescaped as the decoder reads it
// (`"requ\u0065sts"` is requests).
func (s *costScan) key() (string, bool) {
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return "", false
	}
	start := s.i
	s.skipString(false)
	raw := s.b[start:min(s.i, len(s.b))]
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1:max(len(raw)-1, 1)]), true
	}
	var name string
	if json.Unmarshal(raw, &name) != nil {
		return "", true // the decoder refuses the line
	}
	return name, true
}

func (s *costScan) object(t reflect.Type, depth int) {
	s.i++ // '{'
	var fields *fieldSet
	var key, elem reflect.Type
	switch {
	case t == nil:
	case t.Kind() == reflect.Struct:
		f := jsonFields(t)
		fields = &f
	case t.Kind() == reflect.Map:
		key, elem = t.Key(), t.Elem()
		s.cost += 48
	}
	if s.generic {
		s.cost += anyMapSize + 8*anyEntrySize/2 // eight slots at least
	}
	entries := 0
	defer func() {
		if key != nil && entries < 4 { // a table of eight slots at least
			s.cost += int64(8-2*entries) * int64(key.Size()+elem.Size()+1)
		}
	}()
	for {
		s.ws()
		if s.i >= len(s.b) || s.b[s.i] == '}' {
			s.i++
			return
		}
		name, ok := s.key()
		if !ok {
			s.i = len(s.b)
			return
		}
		s.ws()
		if s.i < len(s.b) && s.b[s.i] == ':' {
			s.i++
		}
		s.ws()
		var ft reflect.Type
		switch {
		case fields != nil:
			ft = fields.field(name)
		case s.generic:
			s.cost += anyEntrySize + int64(len(name))
		case key != nil:
			// A map's entry: its slots at twice the entries (RunCost),
			// its key's bytes.
			s.cost += 2*int64(key.Size()+elem.Size()+1) + int64(len(name))
			ft = elem
			entries++
		}
		s.value(ft, false, depth+1)
		s.ws()
		if s.i < len(s.b) && s.b[s.i] == ',' {
			s.i++
		}
	}
}

func (s *costScan) array(t reflect.Type, depth int) {
	s.i++ // '['
	var elem reflect.Type
	if t != nil && t.Kind() == reflect.Slice {
		elem = t.Elem()
	}
	for {
		s.ws()
		if s.i >= len(s.b) || s.b[s.i] == ']' {
			s.i++
			return
		}
		if elem != nil {
			s.cost += int64(elem.Size())
		}
		if s.generic {
			s.cost += anySize
		}
		s.value(elem, false, depth+1)
		s.ws()
		if s.i < len(s.b) && s.b[s.i] == ',' {
			s.i++
		}
	}
}

var fieldsByType sync.Map // reflect.Type → fieldSet

// fieldSet is a struct's exported fields by their JSON name, as given and
// folded as encoding/json folds a key to match a field (foldName).
type fieldSet struct{ exact, folded map[string]reflect.Type }

// field is the type of the field key fills.
func (f fieldSet) field(key string) reflect.Type {
	if t, ok := f.exact[key]; ok {
		return t
	}
	return f.folded[foldName(key)]
}

// jsonFields are t's fields as encoding/json matches a key to them
// (embedded structs' fields promoted, the shallower first).
func jsonFields(t reflect.Type) fieldSet {
	if m, ok := fieldsByType.Load(t); ok {
		return m.(fieldSet)
	}
	m := fieldSet{exact: map[string]reflect.Type{}, folded: map[string]reflect.Type{}}
	for _, f := range reflect.VisibleFields(t) {
		if !f.IsExported() || f.Anonymous && f.Type.Kind() == reflect.Struct {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if _, taken := m.exact[name]; !taken || len(f.Index) == 1 {
			m.exact[name] = f.Type
			m.folded[foldName(name)] = f.Type
		}
	}
	fieldsByType.Store(t, m)
	return m
}

// foldName is encoding/json's folding of a key (its fold.go): ASCII
// letters upper-cased, any other rune as ToUpper(ToLower(r)), so that a
// key of the Kelvin sign or the long s matches as the decoder matches
// it ("requeſts" fills requests).
func foldName(in string) string {
	out := make([]byte, 0, len(in))
	for i := 0; i < len(in); {
		if c := in[i]; c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			out = append(out, c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(in[i:])
		out = utf8.AppendRune(out, unicode.ToUpper(unicode.ToLower(r)))
		i += n
	}
	return string(out)
}
