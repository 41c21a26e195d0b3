package scenarios

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Bounds on the work of placing a YAML syntax error: the bytes re-parsed
// (some 50 ms a MiB), the longest line whose column is sought, and the
// lines left open whose closing is tried.
const (
	maxLocateBytes   = 8 << 20
	maxLocateLineLen = 1024
	maxCloseTries    = 8
)

// locator re-parses variants of a file to place its syntax error, within
// maxLocateBytes.
type locator struct{ budget int }

// parses is yamlError of text, or errBudget once the budget is spent.
func (l *locator) parses(text string) error {
	if l.budget -= len(text); l.budget < 0 {
		return errBudget
	}
	return yamlError(strings.NewReader(text))
}

// failsAs reports whether text fails with the error want.
func (l *locator) failsAs(text, want string) bool {
	e := l.parses(text)
	return e != nil && e != errBudget && e.Error() == want
}

var errBudget = errors.New("out of budget")

// yamlError is the first error yaml.v3 finds in src, reading every
// document as parseYAML does; nil when it finds none.
func yamlError(r io.Reader) error {
	dec := yaml.NewDecoder(r)
	for {
		var n yaml.Node
		if err := dec.Decode(&n); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// locateYAMLError places the syntax error yaml.v3 reports for src (err),
// and says what it is. yaml.v3's "yaml: line N:" is a context mark (where
// the collection around the problem starts, one line less for a parser's
// error), not the problem's position, and it gives no column. The problem
// is on the first line L such that every prefix of the file from line L
// to where the parser stopped fails with the same error; its column is
// found by prefixes of line L (problemColumn), else unknown (0). A quoted
// string or flow collection that does not close on its line, and whose
// closing there lets the file parse to line L, is named instead: the
// parser reads on past it and fails later.
func locateYAMLError(src []byte, err error) (Pos, string) {
	msg, reported := strings.TrimPrefix(err.Error(), "yaml: "), 0
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if i := strings.Index(rest, ": "); i > 0 {
			reported, _ = strconv.Atoi(rest[:i])
			msg = rest[i+2:]
		}
	}
	lines := splitLines(src)
	if msg == "found unexpected end of stream" {
		// yaml.v3 says it of a quoted string only, and places it at the
		// string's line, or at the end when the string opens on line 1.
		for _, k := range []int{reported, 1} {
			if at, ok := quoteToEnd(lines, k); ok {
				return at, fmt.Sprintf("invalid YAML: the quoted string that opens here runs to the end of the file (a closing %c missing?)", lines[at.Line-1][at.Col-1])
			}
		}
	}
	l := &locator{budget: maxLocateBytes - len(src)}
	fails := func(text string) bool { return l.failsAs(text, err.Error()) }
	last := readTo(src, lines)
	line := last
	for line > 1 && fails(strings.Join(lines[:line-1], "")) {
		line--
	}
	if l.budget < 0 {
		return Pos{}, fmt.Sprintf("invalid YAML: %s (by line %d; the file is too large to place it closer)", msg, last)
	}
	if at, what, ok := l.unclosedOnLine(lines, line); ok {
		if at.Line == line {
			return at, fmt.Sprintf("invalid YAML: %s; the parser says: %s", what, msg)
		}
		return at, fmt.Sprintf("invalid YAML: %s; reading on, the parser fails at line %d: %s", what, line, msg)
	}
	before := strings.Join(lines[:line-1], "")
	if strings.HasPrefix(msg, "did not find expected ','") {
		if col := l.missingComma(before, lines[line-1]); col > 0 {
			return Pos{line, col}, "invalid YAML: " + msg
		}
	}
	return Pos{line, l.problemColumn(before, lines[line-1], fails)}, "invalid YAML: " + msg
}

// missingComma is the 1-based column in line (after the lines before) of
// the first value in a flow collection that a comma before it lets the
// lines parse; 0 when none does.
func (l *locator) missingComma(before, line string) int {
	if len(line) > maxLocateLineLen {
		return 0
	}
	for i := 1; i < len(line); i++ {
		if c := line[i]; line[i-1] != ' ' || c == ' ' || c == '\t' || c == '\r' || c == '\n' {
			continue
		}
		if l.parses(before+line[:i-1]+","+line[i-1:]) == nil {
			return utf8.RuneCountInString(line[:i]) + 1
		}
	}
	return 0
}

// quoteToEnd finds on line k (1-based) a quote that starts a quoted
// string that no quote after it closes, to the end of the file.
func quoteToEnd(lines []string, k int) (Pos, bool) {
	if k < 1 || k > len(lines) {
		return Pos{}, false
	}
	at, closers := openOnLine(lines[k-1])
	if closers == "" || closers[0] != lines[k-1][at] {
		return Pos{}, false
	}
	rest := lines[k-1][at:] + strings.Join(lines[k:], "")
	if closingQuote(rest, 0) >= 0 {
		return Pos{}, false
	}
	return Pos{k, utf8.RuneCountInString(lines[k-1][:at]) + 1}, true
}

// splitLines splits src after each newline.
func splitLines(src []byte) []string { return strings.SplitAfter(string(src), "\n") }

// readTo is the line of the last byte yaml.v3 reads of src before it
// fails: it reads no further than it needs, when given a byte at a time.
func readTo(src []byte, lines []string) int {
	r := &byteReader{src: src}
	yamlError(r)
	n, line := 0, 0
	for line < len(lines) && n < r.n {
		n += len(lines[line])
		line++
	}
	return max(line, 1)
}

// byteReader hands out src one byte a Read, and counts them.
type byteReader struct {
	src []byte
	n   int
}

func (r *byteReader) Read(p []byte) (int, error) {
	if r.n >= len(r.src) {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	p[0] = r.src[r.n]
	r.n++
	return 1, nil
}

// problemColumn is the 1-based column in line (after the lines before)
// where the error starts: the character that turns a prefix that parses
// into one that fails as the file does, every longer prefix of the line
// failing so too; or the first character of a token (no blank in it)
// whose prefixes fail otherwise (a key before its colon) until they
// fail so. 0 where neither is (the prefix before fails otherwise, as
// within a flow collection or a string the file leaves open).
func (l *locator) problemColumn(before, line string, fails func(string) bool) int {
	line = strings.TrimRight(line, "\r\n")
	if len(line) > maxLocateLineLen || !fails(before+line) {
		return 0
	}
	k := len(line) // the shortest failing prefix is line[:k]
	for k > 0 {
		_, size := utf8.DecodeLastRuneInString(line[:k])
		if !fails(before + line[:k-size]) {
			break
		}
		k -= size
	}
	// Back to the longest prefix that parses: only the token that ends
	// at k may lie between.
	p := k - lastRuneSize(line[:k])
	for p > 0 && l.parses(before+line[:p]) != nil {
		if r, _ := utf8.DecodeLastRuneInString(line[:p]); r == ' ' || r == '\t' {
			return 0
		}
		p -= lastRuneSize(line[:p])
	}
	if l.parses(before+line[:p]) != nil {
		return 0
	}
	return utf8.RuneCountInString(line[:p]) + 1
}

func lastRuneSize(s string) int {
	_, size := utf8.DecodeLastRuneInString(s)
	return size
}

// unclosedOnLine finds, on the lines up to line (1-based), a quoted
// string or a flow collection ([…] or {…}) that opens and does not close
// on its line, and whose closing at the end of the line lets those lines
// parse: its line and column, and what it lacks.
func (l *locator) unclosedOnLine(lines []string, line int) (Pos, string, bool) {
	tries := 0
	for k := 1; k <= line && k <= len(lines) && tries < maxCloseTries; k++ {
		text := lines[k-1]
		at, closers := openOnLine(text)
		if closers == "" {
			continue
		}
		tries++
		body := strings.TrimRight(text, " \t\r\n")
		fixed := append([]string(nil), lines[:line]...)
		fixed[k-1] = body + closers + text[len(body):]
		if l.parses(strings.Join(fixed, "")) == nil {
			what := "quoted string"
			if c := text[at]; c == '[' || c == '{' {
				what = string(c)
			}
			return Pos{k, utf8.RuneCountInString(text[:at]) + 1}, fmt.Sprintf("the %s that opens here does not close on its line (a closing %c missing?)", what, closers[0]), true
		}
	}
	return Pos{}, "", false
}

// openOnLine finds what opens on line and does not close on it: a quote
// that starts a quoted string (where a value may start: after
// indentation, "- ", ": ", "? ", "[", "{" or ",") and flow collections.
// It returns the byte offset of the innermost, and the characters that
// close them all, innermost first ("" when all close).
func openOnLine(line string) (int, string) {
	line = strings.TrimRight(line, "\r\n")
	var open []int // offsets of the flow collections open
	closers := func(first string) string {
		for i := len(open) - 1; i >= 0; i-- {
			first += map[byte]string{'[': "]", '{': "}"}[line[open[i]]]
		}
		return first
	}
	start := true
	for i := 0; i < len(line); i++ {
		c := line[i]
		blankAfter := i+1 == len(line) || line[i+1] == ' ' || line[i+1] == '\t'
		switch {
		case c == ' ' || c == '\t':
		case c == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			i = len(line)
		case (c == '"' || c == '\'') && start:
			j := closingQuote(line, i)
			if j < 0 {
				return i, closers(string(c))
			}
			i, start = j, false
		case c == '[' || c == '{':
			open, start = append(open, i), true
		case (c == ']' || c == '}') && len(open) > 0:
			open, start = open[:len(open)-1], false
		case c == ',' || (c == '-' || c == '?' || c == ':') && blankAfter:
			start = true
		default:
			start = false
		}
	}
	if len(open) == 0 {
		return 0, ""
	}
	return open[len(open)-1], closers("")
}

// closingQuote is the offset of the quote that closes the string opening
// at line[open], or -1: a double-quoted string escapes with a backslash,
// a single-quoted one doubles the quote.
func closingQuote(line string, open int) int {
	q := line[open]
	for i := open + 1; i < len(line); i++ {
		switch {
		case q == '"' && line[i] == '\\':
			i++
		case line[i] == q && q == '\'' && i+1 < len(line) && line[i+1] == '\'':
			i++
		case line[i] == q:
			return i
		}
	}
	return -1
}
