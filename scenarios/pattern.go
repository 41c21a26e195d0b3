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
