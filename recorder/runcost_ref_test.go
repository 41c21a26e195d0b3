package recorder

import (
	"reflect"

	"github.com/decodebench/decodebench/schema"
)

// The reflect walk of a decoded run that LineCost is held to: the
// readers judge a line before decoding it (LineCost), so this is the
// tests' reference, not a reader's.

// RunCost is about what run r holds in memory, in bytes: its struct and,
// through its exported pointers, slices and maps, everything they reach
// (a time.Time nothing beyond itself: its location is shared; a map
// at twice its entries' slots, eight at least, for the table's slack and
// control bytes; a slice of numbers at its length, the decoder's spare
// room being its own).
func RunCost(r *schema.Run) int64 {
	return int64(reflect.TypeFor[schema.Run]().Size()) + reachable(reflect.ValueOf(r).Elem())
}

// reachable is what v reaches beyond its own size.
func reachable(v reflect.Value) int64 {
	var n int64
	switch v.Kind() {
	case reflect.String:
		n = int64(v.Len())
	case reflect.Pointer:
		if !v.IsNil() {
			n = int64(v.Type().Elem().Size()) + reachable(v.Elem())
		}
	case reflect.Struct:
		if v.Type() == timeType {
			break // its location is time.Local or UTC, shared by every time
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				n += reachable(v.Field(i))
			}
		}
	case reflect.Slice:
		if flat(v.Type().Elem()) {
			n = int64(v.Len()) * int64(v.Type().Elem().Size())
			break
		}
		n = int64(v.Cap()) * int64(v.Type().Elem().Size())
		for i := range v.Len() {
			n += reachable(v.Index(i))
		}
	case reflect.Map:
		if v.IsNil() {
			break
		}
		// A table of at least a group of eight slots, at most half
		// full, and a control byte a slot.
		slots := int64(max(8, 2*v.Len()))
		n = 48 + slots*int64(v.Type().Key().Size()+v.Type().Elem().Size()+1)
		for it := v.MapRange(); it.Next(); {
			n += reachable(it.Key()) + reachable(it.Value())
		}
	}
	return n
}

// flat: a value of kind k reaches nothing beyond its own size.
func flat(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return true
	}
	return false
}
