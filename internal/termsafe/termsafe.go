// Package termsafe renders text that decodebench did not write itself (an
// engine's output or version, a record's fields, a file name) inert on a
// terminal: no control character, escape sequence (CSI, OSC, DCS…),
// bidirectional override or invalid UTF-8 reaches the terminal as is.
// Each becomes a visible escape (\x1b, \r, \u202e, \xff), so what is shown
// is what the string holds, and a string can neither move the cursor,
// retitle the window, write the clipboard, nor reorder what is displayed
// around it.
//
// It is the one escaper of decodebench's console: the command line's
// writers pass everything they print through Text, and printers escape a
// value with String where one line must stay one line. The package
// imports nothing of decodebench's.
package termsafe

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// String escapes s for one line of a terminal: every control character,
// line breaks and tabs included, is made visible.
func String(s string) string { return escape(s, false) }

// Text escapes s for a terminal but keeps its line breaks and tabs, for a
// multi-line message.
func Text(s string) string { return escape(s, true) }

func escape(s string, keepLines bool) string {
	if isPlain(s, keepLines) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case keepLines && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case r == '\\':
			// A backslash stays as is: escapes are for reading, not for
			// decoding back, and doubling every backslash of a Windows
			// path would hurt more than it helps.
			b.WriteRune(r)
		case unsafeRune(r):
			switch r {
			case '\n':
				b.WriteString(`\n`)
			case '\r':
				b.WriteString(`\r`)
			case '\t':
				b.WriteString(`\t`)
			default:
				if r < 0xa0 {
					fmt.Fprintf(&b, `\x%02x`, r)
				} else {
					fmt.Fprintf(&b, `\u%04x`, r)
				}
			}
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// isPlain is the fast path: printable ASCII (and kept line breaks) only.
func isPlain(s string, keepLines bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			continue
		}
		if keepLines && (c == '\n' || c == '\t') {
			continue
		}
		return false
	}
	return true
}

// unsafeRune is a rune a terminal may act on rather than show: C0 and C1
// controls, DEL, and the Unicode format characters that reorder or hide
// text (bidirectional embeddings, overrides and isolates, marks, line and
// paragraph separators, zero-width characters, the byte order mark, tag
// characters: every one of Unicode's Cf, as the records show them).
func unsafeRune(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	case r == 0x2028, r == 0x2029, r >= 0xfff9 && r <= 0xfffb:
		return true
	}
	return unicode.Is(unicode.Cf, r)
}

// Bidi reports whether s holds a bidirectional control character (the
// embeddings, overrides and isolates U+202A–U+202E and U+2066–U+2069, and
// the marks U+200E, U+200F, U+061C), which names and titles refuse.
func Bidi(s string) bool {
	for _, r := range s {
		switch {
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
			return true
		}
	}
	return false
}

// Writer escapes everything written through it with Text (after an
// optional filter, such as redaction) before it reaches the terminal.
// Control sequences decodebench itself draws (the live progress line) go
// through WriteControl, and only those.
type Writer struct {
	w      io.Writer
	filter func(string) string
}

// NewWriter returns a Writer onto w; filter, when not nil, runs on each
// write's text before it is escaped.
func NewWriter(w io.Writer, filter func(string) string) *Writer {
	return &Writer{w: w, filter: filter}
}

// SetFilter replaces the filter (say, once a campaign's secrets are known).
func (w *Writer) SetFilter(filter func(string) string) { w.filter = filter }

// Write escapes p and writes it; it reports len(p) on success, as callers
// of an io.Writer expect.
func (w *Writer) Write(p []byte) (int, error) {
	s := string(p)
	if w.filter != nil {
		s = w.filter(s)
	}
	if _, err := io.WriteString(w.w, Text(s)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// WriteControl writes a control sequence of decodebench's own unchanged.
func (w *Writer) WriteControl(seq string) error {
	_, err := io.WriteString(w.w, seq)
	return err
}

// Unwrap is the writer underneath.
func (w *Writer) Unwrap() io.Writer { return w.w }

// Control writes seq, a control sequence of decodebench's own: through
// WriteControl when w is a Writer, else as is.
func Control(w io.Writer, seq string) error {
	if c, ok := w.(interface{ WriteControl(string) error }); ok {
		return c.WriteControl(seq)
	}
	_, err := io.WriteString(w, seq)
	return err
}
