package redact

import "reflect"

// Walk applies Text, in place, to every string reachable from v (a pointer):
// struct fields, slice and array elements, map values and interface values.
// Map keys are names and stay. Unexported fields are left alone. Apply it
// to a value about to be written (a record, a journal line, a state file)
// and not shared with code that still needs the secrets.
func (r *Redactor) Walk(v any) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return
	}
	r.walk(rv.Elem(), 0)
}

const maxDepth = 64

func (r *Redactor) walk(v reflect.Value, depth int) {
	if depth > maxDepth {
		return
	}
	switch v.Kind() {
	case reflect.String:
		if v.CanSet() {
			if s := r.Text(v.String()); s != v.String() {
				v.SetString(s)
			}
		}
	case reflect.Pointer:
		if !v.IsNil() {
			r.walk(v.Elem(), depth+1)
		}
	case reflect.Interface:
		if v.IsNil() || !v.CanSet() {
			return
		}
		e := v.Elem()
		c := reflect.New(e.Type()).Elem()
		c.Set(e)
		r.walk(c, depth+1)
		v.Set(c)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				r.walk(v.Field(i), depth+1)
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			return // bytes, not text
		}
		for i := 0; i < v.Len(); i++ {
			r.walk(v.Index(i), depth+1)
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		for _, k := range v.MapKeys() {
			c := reflect.New(v.Type().Elem()).Elem()
			c.Set(v.MapIndex(k))
			r.walk(c, depth+1)
			v.SetMapIndex(k, c)
		}
	}
}
