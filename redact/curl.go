package redact

import (
	"path"
	"regexp"
	"sort"
	"strings"
)

// curl takes a user and password in one argument: -u user:password
// (--user, and -U or --proxy-user for a proxy). Other commands' -u and -U
// are no credentials (date's, pip's, rsync's, docker's, sudo's), so the
// password is masked only where curl is the command: the first word of
// an argument vector, or of a command in a shell line (after an
// assignment or a wrapper such as sudo or timeout), never a flag's value
// or a word elsewhere in a sentence. The user is kept.

// curlWrappers run the command that follows them.
var curlWrappers = map[string]bool{"sudo": true, "env": true, "timeout": true, "xargs": true, "exec": true, "command": true,
	"nice": true, "nohup": true, "time": true, "stdbuf": true}

var (
	assignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)
	// curlCluster is a cluster of curl's short flags that take no value,
	// ending in u or U (-sSu user:password).
	curlCluster = regexp.MustCompile(`^-[sSfLkviIgNq#46]+[uU]$`)
)

// isCurlCommand reports whether the command of words (unquoted) is curl,
// and the index of its first argument.
func isCurlCommand(words []string) (int, bool) {
	wrapped := false
	for i, w := range words {
		switch {
		case !wrapped && assignment.MatchString(w):
			continue
		case wrapped && (strings.HasPrefix(w, "-") || strings.Trim(w, "0123456789.smhd") == ""):
			continue // a wrapper's flag or duration (timeout 5 curl, sudo -E curl)
		case curlWrappers[w]:
			wrapped = true
			continue
		}
		b := path.Base(w)
		return i + 1, b == "curl" || b == "curl.exe"
	}
	return 0, false
}

// curlCred is where a curl command's words hold user:password: the word
// and the offset of the value in it.
type curlCred struct{ word, off int }

// curlCredentials are the words of a command (unquoted) that hold curl's
// user:password; none where the command is not curl.
func curlCredentials(words []string) []curlCred {
	start, ok := isCurlCommand(words)
	if !ok {
		return nil
	}
	var out []curlCred
	for i := start; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "-u" || w == "-U" || w == "--user" || w == "--proxy-user" || curlCluster.MatchString(w):
			if i+1 < len(words) {
				out = append(out, curlCred{i + 1, 0})
				i++
			}
		case strings.HasPrefix(w, "--user="):
			out = append(out, curlCred{i, len("--user=")})
		case strings.HasPrefix(w, "--proxy-user="):
			out = append(out, curlCred{i, len("--proxy-user=")})
		case len(w) > 2 && (w[:2] == "-u" || w[:2] == "-U"):
			out = append(out, curlCred{i, 2})
		}
	}
	return out
}

// curlPassword is where the password of a user:password value starts,
// and false where it has none to mask: no colon, nothing after it, a mask
// already, or a shell reference ($PASS, ${PASS}, $(cat file)) that names a
// secret but is none.
func curlPassword(v string) (int, bool) {
	k := strings.IndexByte(v, ':')
	if k < 0 {
		return 0, false
	}
	pw := v[k+1:]
	if pw == "" || pw == Mask || strings.HasPrefix(pw, "$") {
		return 0, false
	}
	return k + 1, true
}

// maskCurlArgs masks curl's passwords in an argument vector (args as the
// command receives them: a quote is part of a password), returns the
// passwords, and the arguments it masked.
func maskCurlArgs(out []string) (found []string, masked map[int]bool) {
	for _, c := range curlCredentials(out) {
		v := out[c.word][c.off:]
		if k, ok := curlPassword(v); ok {
			found = append(found, v[k:])
			out[c.word] = out[c.word][:c.off+k] + Mask
			if masked == nil {
				masked = map[int]bool{}
			}
			masked[c.word] = true
		}
	}
	return found, masked
}

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
// everything, double quotes all but a backslash's escape.
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
			case c == '\\' && i+1 < len(s):
				i++
				add(i)
			default:
				add(i)
			}
		case c == '\'' || c == '"':
			if w == nil {
				w = &shellWord{start: i}
			}
			quote = c
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

// delimiters are the quotes in s[from:to] that delimit a word's parts
// (none of its value's bytes, at): a mask keeps them, so that the line
// stays quoted as it was (alice:"pw" → alice:"[redacted]").
func delimiters(s string, from, to int, at []int) string {
	var out []byte
	j := 0
	for i := from; i < to; i++ {
		for j < len(at) && at[j] < i {
			j++
		}
		if (j == len(at) || at[j] != i) && (s[i] == '"' || s[i] == '\'') {
			out = append(out, s[i])
		}
	}
	return string(out)
}

// maskCurlText masks curl's passwords in a shell line or free text, and
// gives each to found (when not nil). A word that is a whole quoted string
// holding curl (sh -c "curl -u …") is read as a line of its own.
func maskCurlText(s string, found func(string)) string {
	if !strings.Contains(s, "curl") {
		return s
	}
	type edit struct {
		from, to int
		with     string
	}
	var edits []edit
	for _, cmd := range shellCommands(s) {
		words := make([]string, len(cmd))
		for i, w := range cmd {
			words[i] = w.value
		}
		creds := map[int]bool{}
		for _, c := range curlCredentials(words) {
			creds[c.word] = true
			w := cmd[c.word]
			v := w.value[c.off:]
			k, ok := curlPassword(v)
			if !ok {
				continue
			}
			if found != nil {
				found(v[k:])
			}
			from, to := w.at[c.off+k], w.at[len(w.value)-1]+1
			edits = append(edits, edit{from, to, Mask + delimiters(s, from, to, w.at[c.off+k:])})
		}
		for i, w := range cmd {
			q := s[w.start]
			if creds[i] || q != '"' && q != '\'' || w.end-w.start < 2 || s[w.end-1] != q || !strings.Contains(w.value, "curl") {
				continue
			}
			inner := s[w.start+1 : w.end-1]
			if m := maskCurlText(inner, found); m != inner {
				edits = append(edits, edit{w.start + 1, w.end - 1, m})
			}
		}
	}
	// The edits do not overlap (a credential's word is not read as a
	// line): apply them from the last.
	sort.Slice(edits, func(i, j int) bool { return edits[i].from < edits[j].from })
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		s = s[:e.from] + e.with + s[e.to:]
	}
	return s
}
