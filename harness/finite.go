package harness

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/schema"
)

// finiteRun is the journal's last guard: JSON cannot carry NaN or ±Inf,
// and a value that is not finite cannot be true. Every float the run
// holds that is not finite (one that slipped past the checks where engine
// numbers are read) is removed from its map, or zeroed in its struct, and
// listed in run.Impossible, so that the run is always written.
func finiteRun(run *schema.Run) {
	var found []schema.ImpossibleValue
	for k, c := range run.Counters {
		if math.IsNaN(c.Value) || math.IsInf(c.Value, 0) {
			iv, _ := engine.Impossible("counter "+k, c.Value, true)
			found = append(found, iv)
			run.Counters[k] = schema.CounterReading{Absent: true, Impossible: true, Note: "the engine reported " + iv.Value + ", not a finite number; recorded as absent"}
		}
	}
	walkFloats(reflect.ValueOf(run).Elem(), nil, &found)
	sort.Slice(found, func(i, j int) bool { return found[i].Source < found[j].Source })
	run.Impossible = append(run.Impossible, found...)
}

func walkFloats(v reflect.Value, path []string, found *[]schema.ImpossibleValue) {
	note := func(f float64) {
		iv, _ := engine.Impossible(strings.Join(path, "."), f, true)
		*found = append(*found, iv)
	}
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		if f := v.Float(); math.IsNaN(f) || math.IsInf(f, 0) {
			note(f)
			if v.CanSet() {
				v.SetFloat(0)
			}
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walkFloats(v.Elem(), path, found)
		}
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < v.NumField(); i++ {
			if t.Field(i).IsExported() {
				walkFloats(v.Field(i), append(path, jsonName(t.Field(i))), found)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			walkFloats(v.Index(i), path, found)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := v.MapIndex(k)
			p := append(path, k.String())
			switch e.Kind() {
			case reflect.Float32, reflect.Float64:
				if f := e.Float(); math.IsNaN(f) || math.IsInf(f, 0) {
					iv, _ := engine.Impossible(strings.Join(p, "."), f, true)
					*found = append(*found, iv)
					v.SetMapIndex(k, reflect.Value{})
				}
			case reflect.Struct:
				// Map values are not addressable: walk a copy, store it back.
				cp := reflect.New(e.Type()).Elem()
				cp.Set(e)
				walkFloats(cp, p, found)
				v.SetMapIndex(k, cp)
			default:
				walkFloats(e, p, found)
			}
		}
	}
}

func jsonName(f reflect.StructField) string {
	if n, _, _ := strings.Cut(f.Tag.Get("json"), ","); n != "" && n != "-" {
		return n
	}
	return f.Name
}

// maxRunError bounds a run's error text: its parts quote engine text
// shortly (engine.Quote) and its log tail has a few short lines, so only
// an error built some new way could pass it, and then it is cut rather
// than stored whole.
const maxRunError = 16 << 10

func clipError(s string) string {
	if len(s) <= maxRunError {
		return s
	}
	cut := maxRunError
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("… (%d more bytes)", len(s)-cut)
}
