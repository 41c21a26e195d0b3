package engine

import (
	"encoding/json"
	"regexp"
	"strings"
	"unicode/utf8"
)

// CommandText delimits a command engine's generated text in its standard
// output: what follows the first match of after and precedes the first
// match of before (each optional), trimmed, every byte that is not part
// of valid UTF-8 replaced (ValidUTF8). The harness keeps it as the run's
// output; check reads it again from the run's log.
func CommandText(stdout string, after, before *regexp.Regexp) string {
	t := stdout
	if after != nil {
		if loc := after.FindStringIndex(t); loc != nil {
			t = t[loc[1]:]
		}
	}
	if before != nil {
		if loc := before.FindStringIndex(t); loc != nil {
			t = t[:loc[0]]
		}
	}
	return ValidUTF8(strings.TrimSpace(t))
}

// ValidUTF8 replaces every byte that is not part of valid UTF-8 with
// U+FFFD, as encoding/json does when runs.jsonl is written, so that the
// output's hash is the hash of what is stored.
func ValidUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// LastJSON is the last of the lines that is a JSON object, which a
// command engine's json: counters read; nil when there is none.
func LastJSON(lines []string) map[string]any {
	for i := len(lines) - 1; i >= 0; i-- {
		if v := JSONLine(lines[i]); v != nil {
			return v
		}
	}
	return nil
}

// JSONLine is the JSON object a line holds, spaces around it aside; nil
// when it holds none.
func JSONLine(line string) map[string]any {
	l := strings.TrimSpace(line)
	if len(l) == 0 || l[0] != '{' {
		return nil
	}
	var v map[string]any
	if json.Unmarshal([]byte(l), &v) != nil {
		return nil
	}
	return v
}
