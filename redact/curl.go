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

// curlWrappers run the command that follows them, with the short
// options of theirs that take a value (sudo -u user curl); shell words
// that start a command are wrappers with none (if, then, do, !, {), and
// so are a set -x trace's + and a prompt's $.
var curlWrappers = map[string]string{"sudo": "ugChpDrtU", "env": "uCS", "timeout": "sk", "xargs": "InPLdaEsn", "exec": "a",
	"command": "", "nice": "n", "nohup": "", "time": "fo", "stdbuf": "ioe",
	"if": "", "then": "", "else": "", "elif": "", "do": "", "while": "", "until": "", "!": "", "{": "", "$": ""}

// curlWrapperLong are the wrappers' long options that take a value in
// the next word (sudo --user curl docker …: curl is the user).
var curlWrapperLong = map[string]string{
	"sudo": " user group host prompt chdir role type other-user close-from ", "env": " unset chdir split-string ",
	"timeout": " signal kill-after ", "time": " output format ", "nice": " adjustment ", "stdbuf": " input output error ",
	"xargs": " arg-file delimiter max-args max-lines max-procs max-chars eof replace ",
}

// curlValueOptions are curl's short options that take the next word as
// their value (-A agent, -o file): that word is no -u.
const curlValueOptions = "AbcCdDeEFHKmoPQrtTwxXyYz"

var (
	assignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)
	duration   = regexp.MustCompile(`^[0-9.]+[smhd]?$`)
	// curlCluster is a cluster of curl's short flags that take no value,
	// ending in u or U (-sSu user:password).
	curlCluster = regexp.MustCompile(`^-[sSfLkviIgNq#46]+[uU]$`)
	// curlClusterValue is such a cluster with its value attached.
	curlClusterValue = regexp.MustCompile(`^-[sSfLkviIgNq#46]+[uU]`)
	// credentialFlag is in every text where curl is given a credential
	// (its letters quoted or escaped too: -'u', -\u).
	credentialFlag = regexp.MustCompile(`-[A-Za-z#46'"\\-]*[uU]`)
)

// isCurlCommand reports whether the command of words (unquoted) is curl,
// and the index of its first argument.
func isCurlCommand(words []string) (int, bool) {
	wrapper, wrapped := "", false
	for i := 0; i < len(words); i++ {
		w := words[i]
		if _, ok := curlWrappers[w]; ok || strings.Trim(w, "+") == "" {
			wrapper, wrapped = w, true
			continue
		}
		switch {
		case assignment.MatchString(w):
			continue
		case wrapped && strings.HasPrefix(w, "--"):
			// A wrapper's long option; one that takes a value takes the
			// next word, unless given with = (--user=bob).
			if !strings.Contains(w, "=") && strings.Contains(curlWrapperLong[wrapper], " "+w[2:]+" ") {
				i++
			}
			continue
		case wrapped && strings.HasPrefix(w, "-"):
			// A short one (sudo -u user), unless attached (-uuser).
			if len(w) == 2 && strings.IndexByte(curlWrappers[wrapper], w[1]) >= 0 {
				i++
			}
			continue
		case wrapped && duration.MatchString(w):
			continue // timeout 60 curl
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
		case w == "--":
			return out // the rest are URLs
		case len(w) == 2 && w[0] == '-' && strings.IndexByte(curlValueOptions, w[1]) >= 0:
			i++ // -A agent, -o file: the next word is a value
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
		case curlClusterValue.MatchString(w):
			// -sSualice:pw: the cluster's last flag takes the rest.
			out = append(out, curlCred{i, len(curlClusterValue.FindString(w))})
		}
	}
	return out
}

// curlPassword is where the password of a user:password value starts
// (after the first colon outside ${…}, $(…) and backticks: ${USER:-ci}
// is a reference), and false where it has none to mask: no colon, nothing
// after it, a mask already, a shell reference ($PASS, ${PASS}, $(cat
// file), `cat file`), a placeholder (<password>, %PASS%), digits alone (a
// port given to -U: a password of digits is left, not every 8080 of a
// campaign's files masked), a URL's rest (-u https://h), or a newline (a
// quote the line's reading did not close: a password is one line).
func curlPassword(v string) (int, bool) {
	k := userColon(v)
	if k < 0 {
		return 0, false
	}
	pw := v[k+1:]
	switch {
	case pw == "" || pw == Mask || strings.ContainsRune(pw, '\n'),
		strings.HasPrefix(pw, "$") || strings.HasPrefix(pw, "`") || strings.HasPrefix(pw, "//"),
		placeholder.MatchString(pw), strings.Trim(pw, "0123456789") == "":
		return 0, false
	}
	return k + 1, true
}

// psScope is a PowerShell variable's scope ($env:NAME): its colon is
// no user's.
var psScope = regexp.MustCompile(`(?i)^(?:env|global|local|script|private|using|variable):`)

var placeholder = regexp.MustCompile(`^(?:<[^<>]*>|%[A-Za-z_][A-Za-z0-9_]*%)$`)

// userColon is the index of v's first colon outside ${…}, $(…) and
// backticks, or -1.
func userColon(v string) int {
	var stack []byte // the closers awaited
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case len(stack) > 0 && c == stack[len(stack)-1]:
			stack = stack[:len(stack)-1]
		case c == '`':
			stack = append(stack, '`')
		case c == '$' && i+1 < len(v) && (v[i+1] == '{' || v[i+1] == '('):
			if v[i+1] == '{' {
				stack = append(stack, '}')
			} else {
				stack = append(stack, ')')
			}
			i++
		case c == '$' && psScope.MatchString(v[i+1:]):
			i += len(psScope.FindString(v[i+1:])) // PowerShell's $env:NAME
		case c == ':' && len(stack) == 0:
			return i
		}
	}
	return -1
}

// maskCurlArgs masks curl's passwords in an argument vector (args as the
// command receives them: a quote is part of a password), returns the
// passwords that look like credentials (CredentialLike: an example's
// "token" or "pass", learned, would mask every "tokens/s" of a
// campaign's files; it is masked where it stands), and the arguments it
// masked.
func maskCurlArgs(out []string) (found []string, masked map[int]bool) {
	for _, c := range curlCredentials(out) {
		v := out[c.word][c.off:]
		if k, ok := curlPassword(v); ok {
			if CredentialLike(v[k:]) {
				found = append(found, v[k:])
			}
			out[c.word] = out[c.word][:c.off+k] + Mask
			if masked == nil {
				masked = map[int]bool{}
			}
			masked[c.word] = true
		}
	}
	return found, masked
}

// delimiters are the quotes in s[from:to] that delimit a word's parts
// (none of its value's bytes, at).
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
// gives each that looks like a credential to found (when not nil), as
// maskCurlArgs returns them.
func maskCurlText(s string, found func(string)) string {
	if !strings.Contains(s, "curl") || !credentialFlag.MatchString(s) {
		// No word of s can be curl's credential flag (-u, -U, --user,
		// --proxy-user, a cluster ending in u): the line is not read as
		// a shell would (megabytes of an engine's output cost seconds).
		return s
	}
	edits := curlEdits(s, found)
	if len(edits) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, e := range edits {
		b.WriteString(s[last:e.from])
		b.WriteString(e.with)
		last = e.to
	}
	b.WriteString(s[last:])
	return b.String()
}

// curlEdit replaces s[from:to] with with.
type curlEdit struct {
	from, to int
	with     string
}

// curlEdits are the masks of curl's passwords in s, in order, none
// overlapping. A word whose value holds curl and a blank (sh -c "curl -u
// …") is read as a line of its own, its escapes undone.
func curlEdits(s string, found func(string)) []curlEdit {
	var edits []curlEdit
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
			if found != nil && CredentialLike(v[k:]) {
				found(v[k:])
			}
			edits = append(edits, w.edit(s, c.off+k, len(w.value), Mask))
		}
		for i, w := range cmd {
			if creds[i] || !strings.Contains(w.value, "curl") || !strings.ContainsAny(w.value, " \t\n") {
				continue
			}
			for _, e := range curlEdits(w.value, found) {
				edits = append(edits, w.edit(s, e.from, e.to, e.with))
			}
		}
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].from < edits[j].from })
	return edits
}

// edit replaces the word's value bytes from to to (in the value) with
// with, in s: the delimiting quotes in between are kept, so that the
// line stays quoted as it was (alice:"pw" → alice:"[redacted]"), and
// escapes go with what they escaped.
func (w shellWord) edit(s string, from, to int, with string) curlEdit {
	a, b := w.at[from], w.at[to-1]+1
	if a > 0 && s[a-1] == '\\' && (from == 0 || w.at[from-1] != a-1) {
		a-- // the backslash that escapes the first byte goes with it
	}
	return curlEdit{a, b, with + delimiters(s, a, b, w.at[from:to])}
}
