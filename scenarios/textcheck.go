package scenarios

import (
	"fmt"

	"github.com/decodebench/decodebench/internal/termsafe"
)

// validateText refuses, in the free text a scenario puts into titles and
// sentences of the record (title, unmeasured, allow_unverified), control
// characters and the Unicode format characters that reorder or hide text
// (bidirectional overrides and isolates U+202A–U+202E, U+2066–U+2069,
// zero-width characters): a title that displays as something else than
// it holds, on a terminal or in a rendered record. Names (feature,
// hardware, arms) are already limited to letters, digits and - _ .
func (s *Scenario) validateText(p *problems) {
	check := func(key, v string, escape func(string) string) {
		if e := escape(v); e != v {
			what := "a control character"
			if termsafe.Bidi(v) {
				what = "a bidirectional override"
			}
			p.at(key, "holds %s, which can make it display as something it is not: %s", what, e)
		}
	}
	check("title", s.Title, termsafe.String) // one line
	// Sentences may span lines (a YAML block scalar).
	check("allow_unverified", s.AllowUnverified, termsafe.Text)
	for i, n := range s.Unmeasured {
		check(fmt.Sprintf("unmeasured[%d]", i), string(n), termsafe.Text)
	}
}
