package recorder

import (
	"fmt"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Everything a user, a scenario or an engine controls (titles, names,
// command lines, engine output, prompts) reaches the Markdown through one
// of these functions, which keep it on one line and inert: it can never
// open a fence, a heading, an HTML block or a comment, nor end a table
// cell, so nothing in it can be taken for the record's data block; nor
// can it reorder or hide what is read around it: every format character
// (a bidirectional control, a zero-width or tag character) is shown as
// its \uNNNN (visibleFormat), in the record, its headline (run
// --github-summary, check --headline) and the console alike.

// oneLine replaces line breaks (and other control characters) with a
// visible mark, and shows every format character as visibleFormat does.
func oneLine(s string) string {
	var b strings.Builder
	for _, r := range visibleFormat(s) {
		switch {
		case r == '\n':
			b.WriteString("⏎")
		case r == '\r' || r == '\t' || r == '\v' || r == '\f' || r == 0x85 || r == 0x2028 || r == 0x2029:
			b.WriteByte(' ')
		case r < 0x20 || r == 0x7f:
			b.WriteRune('�')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// text escapes s as inline Markdown text: every ASCII punctuation mark that
// Markdown gives a meaning is backslash-escaped, and < and > become
// entities so that no HTML is interpreted.
func text(s string) string {
	s = oneLine(s)
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '\\', '`', '*', '_', '[', ']', '#', '|', '~', '!':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// code writes s as an inline code span that s cannot close: its fence is
// longer than any run of backticks in s.
func code(s string) string {
	s = oneLine(s)
	if s == "" {
		return "—"
	}
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || longest > 0 {
		s = " " + s + " "
	}
	return fence + s + fence
}

// cell makes an inline fragment safe inside a table cell: GitHub splits
// rows on every unescaped |, code spans included.
func cell(s string) string { return strings.ReplaceAll(s, "|", "\\|") }

// cellCode is code(s) inside a table cell.
func cellCode(s string) string { return cell(code(s)) }

// cellText is text(s) inside a table cell: text already escapes every |,
// which a table reads as a literal pipe; cell on it escaped the escape,
// and goldmark (site) showed "\|" where the data block holds "|".
func cellText(s string) string { return text(s) }

// block writes multi-line text (an engine's error and log tail) as a code
// block whose every line is indented by four spaces inside a ~~~ fence:
// no line can close the fence (a closing fence is indented at most three),
// nor equal the data block's fence line; format characters are shown as
// visibleFormat shows them.
func block(s string) string {
	var b strings.Builder
	b.WriteString("~~~text\n")
	for _, l := range strings.Split(strings.TrimRight(visibleFormat(s), "\n"), "\n") {
		b.WriteString("    ")
		b.WriteString(strings.Map(func(r rune) rune {
			if r == '\r' || (r < 0x20 && r != '\t') || r == 0x7f {
				return '�'
			}
			return r
		}, l))
		b.WriteByte('\n')
	}
	b.WriteString("~~~\n")
	return b.String()
}

// linkPath writes a relative path as a link destination: each segment
// percent-encoded, so no character in it can end the link, start markup or
// break the line, its colons too, so that no data folder a record names
// (https:evil.example) reads as a scheme: the link stays a path beside the
// record.
func linkPath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = strings.ReplaceAll(url.PathEscape(s), ":", "%3A")
	}
	return strings.Join(segs, "/")
}

// LinkPath is linkPath for other Markdown decodebench writes (the index).
func LinkPath(p string) string { return linkPath(p) }

// MarkdownText escapes s as inline text of a Markdown table cell, as the
// record does: one line, every Markdown mark backslash-escaped (no link,
// image or emphasis), no HTML, no | that ends the cell; and every format
// character (a bidirectional override or isolate, a zero-width one) shown
// as its \uNNNN, so nothing reorders what is read around it. For other
// Markdown decodebench writes (the index, diff --markdown, which a review
// job appends to the job summary).
func MarkdownText(s string) string { return cellText(visibleFormat(s)) }

// MarkdownCode writes s as an inline code span inside a table cell, as
// the record does (a fence no run of backticks in s can close, one line,
// | escaped), format characters shown as MarkdownText shows them.
func MarkdownCode(s string) string { return cellCode(visibleFormat(s)) }

// visibleFormat shows every format character of s (Unicode's Cf: the
// bidirectional controls U+202A–U+202E and U+2066–U+2069, zero-width
// spaces and joiners, U+FEFF) as \uNNNN.
func visibleFormat(s string) string {
	if !strings.ContainsFunc(s, isFormat) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isFormat(r) {
			fmt.Fprintf(&b, "\\u%04x", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isFormat(r rune) bool { return unicode.Is(unicode.Cf, r) }

// escapeBytes writes what an engine generated so that every byte of it is
// seen: a byte that is not UTF-8 as \xNN, a character that prints nothing
// or moves the text (controls, format characters such as a bidi override,
// a line break) as \uNNNN, a backslash as \\; everything printable as
// itself. It keeps the first n characters (or bytes that are none), then
// "…".
func escapeBytes(s string, n int) string {
	var b strings.Builder
	for i, kept := 0, 0; i < len(s); kept++ {
		if kept == n {
			b.WriteString("…")
			break
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case r == '\\':
			b.WriteString(`\\`)
		case r == ' ':
			b.WriteByte(' ')
		case !unicode.IsGraphic(r) || unicode.Is(unicode.Cf, r) || unicode.IsSpace(r):
			if r > 0xffff {
				fmt.Fprintf(&b, "\\U%08x", r)
			} else {
				fmt.Fprintf(&b, "\\u%04x", r)
			}
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}
