package scenarios

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/decodebench/decodebench/internal/termsafe"
)

// validateText refuses, in the free text a scenario puts into the record,
// its headline, its plots and its exports (title, issue, unmeasured,
// allow_unverified, allow_dirty, a metric's unit), control characters
// and the Unicode format characters that reorder or hide text
// (bidirectional overrides and isolates U+202A–U+202E, U+2066–U+2069,
// zero-width and tag characters: all of Unicode's Cf): a title that
// displays as something else than it holds, on a terminal or in a
// rendered record. The one-line keys (title, issue, unit) refuse a line
// break too. Names (feature, hardware, arms, metrics) are already
// limited to letters, digits and - _ .; commands, prompts, patterns and
// paths are the engine's input, shown escaped.
func (s *Scenario) validateText(p *problems) {
	check := func(key, v string, escape func(string) string) {
		if e := escape(v); e != v {
			p.at(key, "holds %s, which can make it display as something it is not: %s", hiddenKind(v), e)
		}
	}
	check("title", s.Title, termsafe.String) // one line
	check("issue", s.Issue, termsafe.String)
	// Sentences may span lines (a YAML block scalar).
	check("allow_unverified", s.AllowUnverified, termsafe.Text)
	for i, n := range s.Unmeasured {
		check(fmt.Sprintf("unmeasured[%d]", i), string(n), termsafe.Text)
	}
	check("engine.allow_dirty", s.Engine.AllowDirty, termsafe.Text)
	for i, a := range s.Arms {
		if a.Engine != nil {
			check(fmt.Sprintf("arms[%d].engine.allow_dirty", i), a.Engine.AllowDirty, termsafe.Text)
		}
	}
	for i, m := range s.Metrics.Extra {
		check(fmt.Sprintf("metrics.extra[%d].unit", i), m.Unit, termsafe.String)
	}
}

// hiddenKind names what validateText found in v.
func hiddenKind(v string) string {
	switch {
	case termsafe.Bidi(v):
		return "a bidirectional override"
	case strings.ContainsFunc(v, func(r rune) bool { return unicode.Is(unicode.Cf, r) }):
		return "a format character (zero-width or invisible)"
	case strings.ContainsAny(v, "\n\r"):
		return "a line break"
	}
	return "a control character"
}
