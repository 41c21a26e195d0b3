package redact

import "strings"

// shellWord is a word of a shell line: its unquoted value and, for each
// of the value's bytes, its place in the line.
type shellWord struct {
	value      string
	at         []int
	start, end int // the word's bytes in the line
}

// shellCommands splits a line into its commands' words, as a shell
// would: unquoted blanks separate words; newlines, ;, &, |, backticks and
// parentheses separate commands ($(…) among them); single quotes keep
// everything, double quotes all but a backslash's escape; a # that starts
// a word starts a comment, to the line's end.
func shellCommands(s string) [][]shellWord {
	var cmds [][]shellWord
	var cmd []shellWord
	var w *shellWord
	var b []byte
	flush := func(end int) {
		if w != nil {
			w.value, w.end = string(b), end
			cmd = append(cmd, *w)
			w, b = nil, nil
		}
	}
	endCmd := func(end int) {
		flush(end)
		if len(cmd) > 0 {
			cmds = append(cmds, cmd)
			cmd = nil
		}
	}
	add := func(i int) {
		if w == nil {
			w = &shellWord{start: i}
		}
		b = append(b, s[i])
		w.at = append(w.at, i)
	}
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				add(i)
			}
		case quote == '"':
			switch {
			case c == '"':
				quote = 0
			case c == '\\' && i+1 < len(s) && s[i+1] == '\n':
				i++ // a line's continuation: nothing
			case c == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0:
				// Within double quotes a backslash escapes only these;
				// before any other character it is itself.
				i++
				add(i)
			default:
				add(i)
			}
		case c == '#' && w == nil:
			// A comment, to the line's end (an apostrophe in it opens
			// no quote).
			for i+1 < len(s) && s[i+1] != '\n' {
				i++
			}
		case c == '\'' || c == '"':
			if w == nil {
				w = &shellWord{start: i}
			}
			quote = c
		case c == '\\' && i+1 < len(s) && s[i+1] == '\n':
			i++ // a line's continuation: nothing
		case c == '\\' && i+1 < len(s):
			i++
			add(i)
		case c == ' ' || c == '\t' || c == '\r':
			flush(i)
		case strings.IndexByte("\n;&|`()", c) >= 0:
			endCmd(i)
		default:
			add(i)
		}
	}
	endCmd(len(s))
	return cmds
}
