package review

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/decodebench/decodebench/schema"
)

// checkFootprint derives method.footprint (decodebench's own CPU over the
// measured windows, which the record states as a cost to the engine)
// again from the runs' own: an edited total ("0.001 s over 116 s of
// windows, 0.00% of one core") passed.
func checkFootprint(rec *schema.Record) []Problem {
	want := schema.FootprintTotal(rec.Runs)
	if reflect.DeepEqual(rec.Method.Footprint, want) {
		return nil
	}
	return []Problem{{"Method", fmt.Sprintf("footprint %s, where the runs' footprints sum to %s", footprintJSON(rec.Method.Footprint), footprintJSON(want))}}
}

func footprintJSON(f *schema.Footprint) string {
	if f == nil {
		return "none"
	}
	b, _ := json.Marshal(f)
	return string(b)
}
