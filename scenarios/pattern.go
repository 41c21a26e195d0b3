package scenarios

import (
	"fmt"
	"regexp"
	"regexp/syntax"
)

// What a scenario's regular expression (an exactness strip, a counter's
// log:, an output metric, tokens, a capture, a decline, a text bound) may
// cost. Go's matcher runs in time linear in the text, but its step per
// byte is as large as the compiled program: (?s).{0,1000} repeated a
// hundred times is 6.4 KB of pattern and 100,000 instructions, and
// stripping it from a record's outputs took check 18.7 s and 403 MB. The
// committed and shipped scenarios' patterns compile to fewer than 50.
const (
	// MaxPatternBytes is the longest pattern a scenario may give.
	MaxPatternBytes = 1024
	// MaxPatternInsts is the most instructions a pattern may compile to
	// (regexp/syntax, after Simplify): .{0,1000} alone is 2002, and a
	// literal one a character, so a literal of over 990 is refused too.
	MaxPatternInsts = 1000
)

// compilePattern compiles a scenario's regular expression, refusing one
// longer than MaxPatternBytes or compiling to more than MaxPatternInsts
// instructions before regexp compiles it.
func compilePattern(expr string) (*regexp.Regexp, error) {
	if len(expr) > MaxPatternBytes {
		return nil, fmt.Errorf("the pattern is %d bytes, more than the %d a scenario's pattern may be", len(expr), MaxPatternBytes)
	}
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, err
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return nil, err
	}
	if n := len(prog.Inst); n > MaxPatternInsts {
		return nil, fmt.Errorf("the pattern compiles to %d instructions, more than the %d a scenario's pattern may cost "+
			"(a bounded repeat such as .{0,1000} costs about twice its count, at every byte matched)", n, MaxPatternInsts)
	}
	return regexp.Compile(expr)
}

// pattern compiles the regular expression a scenario gives at key,
// recording at key why it cannot be used: it does not compile (see
// compilePattern), or it names a variable. ${NAME} is never replaced in
// a pattern (patternVar says why), so it is refused where a new scenario
// loads; a stored one is read as it ran.
func (p *problems) pattern(key, expr string) (*regexp.Regexp, bool) {
	re, err := compilePattern(expr)
	if err != nil {
		p.at(key, "invalid regular expression: %v", err)
		return nil, false
	}
	if name := patternVar(expr); name != "" && !p.offline {
		p.at(key, "${%s}: variables are not replaced in a regular expression (its $ is an end anchor: the pattern would never match); "+
			"write the text itself, or \\$\\{%s\\} to match it literally", name, name)
		return nil, false
	}
	return re, true
}

// patternVar is the first ${NAME} a pattern holds, not escaped (\${NAME}
// matches the text ${NAME}): "" when none. A pattern is the scenario's
// own text, the same on every machine: a record's analysis re-reads it
// offline, where the environment that gave a variable its value is not
// consulted, so a replaced value would make the run and the check read
// the engine's lines differently.
func patternVar(expr string) string {
	for _, m := range varRef.FindAllStringSubmatchIndex(expr, -1) {
		slashes := 0
		for i := m[0] - 1; i >= 0 && expr[i] == '\\'; i-- {
			slashes++
		}
		if slashes%2 == 0 {
			return expr[m[2]:m[3]]
		}
	}
	return ""
}
