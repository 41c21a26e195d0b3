package scenarios

import (
	"maps"
	"slices"
	"strings"
)

// notBaselines names what of a control arm's launch differs from the
// baseline's ("" when nothing): its arguments or its environment. Its
// engine command may name another path (a copy of the baseline's binary
// is the check that copying changes nothing), which the run compares by
// hash.
func notBaselines(control, baseline Launch) string {
	var what []string
	if !slices.Equal(control.Args, baseline.Args) {
		what = append(what, "its args")
	}
	if !maps.Equal(control.Env, baseline.Env) {
		what = append(what, "its environment")
	}
	return strings.Join(what, " and ")
}
