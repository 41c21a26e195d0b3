package schema

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// Every reason, with every field set to its own value, reads back as it
// was from both stored forms: no two fields share a place in either.
func TestReasonsRoundTrip(t *testing.T) {
	if len(reasonTypes) != len(allReasons) {
		t.Fatalf("%d codes for %d reason types", len(reasonTypes), len(allReasons))
	}
	n := 0
	var fill func(v reflect.Value)
	fill = func(v reflect.Value) {
		for i := 0; i < v.NumField(); i++ {
			n++
			switch f := v.Field(i); f.Kind() {
			case reflect.Struct:
				fill(f)
			case reflect.Int:
				f.SetInt(int64(n))
			case reflect.Float64:
				f.SetFloat(float64(n) + 0.5)
			case reflect.String:
				f.SetString(strings.Repeat("s", n))
			case reflect.Bool:
				f.SetBool(true)
			}
		}
	}
	for _, r := range allReasons {
		v := reflect.New(reflect.TypeOf(r)).Elem()
		fill(v)
		want := Reasons{v.Interface().(Reason)}
		// A field tagged v2:"-" is newer than v2: the legacy form has no
		// place for it, and no v2 record holds it.
		old := reflect.New(reflect.TypeOf(r)).Elem()
		old.Set(v)
		for i := 0; i < old.NumField(); i++ {
			if old.Type().Field(i).Tag.Get("v2") == "-" {
				old.Field(i).SetZero()
			}
		}
		for j, stored := range []Reasons{want, legacyAll(want)} {
			b, err := json.Marshal(stored)
			if err != nil {
				t.Fatal(err)
			}
			want := want
			if j == 1 {
				want = Reasons{old.Interface().(Reason)}
			}
			var got Reasons
			if err := json.Unmarshal(b, &got); err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("%s: %s reads back as %+v (%v), want %+v", r.Code(), b, got, err, want)
			}
		}
	}
	var got Reasons
	if err := json.Unmarshal([]byte(`[{"code":"no-such-code"}]`), &got); err == nil || !strings.Contains(err.Error(), "no-such-code") {
		t.Errorf("unknown code: %v", err)
	}
	if b, _ := json.Marshal(Reasons{ThinArm{Arm: "a", Runs: 1}, KernelTiming{}}); string(b) != `[{"code":"thin-arm","arm":"a","runs":1},{"code":"kernel-timing"}]` {
		t.Errorf("stored as %s", b)
	}
}
