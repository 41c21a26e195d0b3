package review

import (
	"encoding/json"
	"fmt"
	"sort"
)

// firstDifference names the first JSON path at which two values differ.
func firstDifference(a, b any) string {
	var x, y any
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	_ = json.Unmarshal(ja, &x)
	_ = json.Unmarshal(jb, &y)
	if p := diffPath("", x, y); p != "" {
		return p
	}
	return "(somewhere)"
}

func diffPath(at string, x, y any) string {
	switch xv := x.(type) {
	case map[string]any:
		yv, ok := y.(map[string]any)
		if !ok {
			return at
		}
		keys := map[string]bool{}
		for k := range xv {
			keys[k] = true
		}
		for k := range yv {
			keys[k] = true
		}
		var ks []string
		for k := range keys {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		for _, k := range ks {
			if p := diffPath(at+"."+k, xv[k], yv[k]); p != "" {
				return p
			}
		}
		return ""
	case []any:
		yv, ok := y.([]any)
		if !ok || len(xv) != len(yv) {
			return at
		}
		for i := range xv {
			if p := diffPath(fmt.Sprintf("%s[%d]", at, i), xv[i], yv[i]); p != "" {
				return p
			}
		}
		return ""
	}
	if fmt.Sprint(x) != fmt.Sprint(y) {
		return fmt.Sprintf("%s is %v in the record, %v from the runs", at, x, y)
	}
	return ""
}
