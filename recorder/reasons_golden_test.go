package recorder

import (
	"bytes"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// filled is a reason of r's type with every field set from seed: the
// sentences of every reason are held to their golden text.
func filled(r schema.Reason, seed int) schema.Reason {
	v := reflect.New(reflect.TypeOf(r)).Elem()
	var fill func(v reflect.Value, depth int)
	fill = func(v reflect.Value, depth int) {
		for i := 0; i < v.NumField(); i++ {
			f := v.Field(i)
			if !f.CanSet() {
				continue
			}
			k := seed + 3*i + depth
			switch f.Kind() {
			case reflect.String:
				f.SetString(fmt.Sprintf("s%d|<b>`x`", k))
			case reflect.Int, reflect.Int64:
				f.SetInt(int64(k%7 + 1))
			case reflect.Float64:
				f.SetFloat(float64(k%9+1) / 37)
			case reflect.Bool:
				f.SetBool(k%2 == 0)
			case reflect.Struct:
				fill(f, depth+1)
			}
		}
	}
	fill(v, 0)
	return v.Interface().(schema.Reason)
}

// Every reason's sentence, for the Markdown record (v3 and v2) and the
// console, with its fields set two ways, is the golden text's.
func TestReasonSentencesGolden(t *testing.T) {
	var buf bytes.Buffer
	styles := []struct {
		name string
		f    style
	}{{"markdown", style{md: true}}, {"markdown-v2", style{md: true, v2: true}}, {"console", style{}}, {"busy", style{md: true, busy: []string{"a", "b", "c", "d"}}}}
	for _, r := range schema.AllReasons() {
		for _, seed := range []int{0, 1} {
			fr := filled(r, seed)
			for _, st := range styles {
				fmt.Fprintf(&buf, "%s %d %s: %s\n", r.Code(), seed, st.name, st.f.reason(fr))
			}
		}
	}
	golden(t, filepath.Join("testdata", "reasons.golden.txt"), buf.Bytes())
}
