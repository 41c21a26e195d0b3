package harness

import (
	"fmt"
	"strings"
)

// IdenticalEngines is the refusal of a campaign whose two arms, neither a
// control, run byte-identical engine binaries (and libraries) from two
// files with the same arguments and environment: an accidental A/A
// comparison. A bisect step whose candidate builds the good commit's
// binary again (a commit that changed only the docs) takes it as its
// result instead: no change.
type IdenticalEngines struct {
	Arms  [2]string
	Paths [2]string
	// Real are the binaries the two engines, wrapper scripts, run (each
	// empty for an engine that names none).
	Real   [2]string
	SHA256 string
}

func (e *IdenticalEngines) Error() string {
	what := fmt.Sprintf("arms %q and %q run byte-identical binaries (%s and %s, sha256 %.12s) with the same arguments and environment",
		e.Arms[0], e.Arms[1], e.Paths[0], e.Paths[1], e.SHA256)
	how := "build the arms from different sources, or mark one control: true to measure the method's noise floor"
	return fmt.Sprintf("%s: an accidental A/A comparison; %s%s", what, how, nothingWritten)
}

// Of reports whether the two arms are a and b, in either order.
func (e *IdenticalEngines) Of(a, b string) bool {
	return (e.Arms[0] == a && e.Arms[1] == b) || (e.Arms[0] == b && e.Arms[1] == a)
}

// nothingWritten ends the error of a campaign refused before it wrote
// anything, as `decodebench run` reports it.
const nothingWritten = "; nothing was written"

// RefusedBeforeStart reports whether err refused a campaign before it
// wrote anything, and its reason without that claim: a caller that has
// itself written files (a bisect's summary) says what it kept instead.
func RefusedBeforeStart(err error) (string, bool) {
	if err == nil {
		return "", false
	}
	return strings.CutSuffix(err.Error(), nothingWritten)
}
