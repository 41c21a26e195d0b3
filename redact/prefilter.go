package redact

import (
	"bytes"
	"encoding/base64"
	"strings"
	"unicode/utf8"
)

// The prefilters are what a form's pattern needs before its regexp runs
// (form.pre): decodebench redacts every line an engine prints, measured
// windows included, and almost none holds a secret. Each is a superset of
// its pattern's matches: a prefilter that passes costs the regexp, one
// that fails never hides a secret.

// A probe keeps the prefilters of one text that several forms share, as
// forms apply one after the other to the same text (until one masks).
type probe struct {
	s               string
	isNamed, isFlag int8 // 0 not yet known, 1 no, 2 yes
}

// named is namedBeforeSep(s), once a text.
func (p *probe) named(s string) bool {
	if p.s != s {
		*p = probe{s: s}
	}
	if p.isNamed == 0 {
		p.isNamed = 1 + b2i(namedBeforeSep(s))
	}
	return p.isNamed == 2
}

// flag is secretFlag(s), once a text.
func (p *probe) flag(s string) bool {
	if p.s != s {
		*p = probe{s: s}
	}
	if p.isFlag == 0 {
		p.isFlag = 1 + b2i(secretFlag(s))
	}
	return p.isFlag == 2
}

func b2i(b bool) int8 {
	if b {
		return 1
	}
	return 0
}

// namedBeforeSep reports whether a ':' or '=' of s has a secret name
// before it (IsSecretName), past blanks, a closing bracket, a quote and
// its backslash: `api_key = `, `"password":`, `['DB_PASSWORD'] =`,
// `\"password\":`, `Authorization:`. Every form of a named value needs
// one.
func namedBeforeSep(s string) bool {
	for i := strings.IndexAny(s, ":="); i >= 0; {
		j := i
		for j > 0 && (s[j-1] == ' ' || s[j-1] == '\t') {
			j--
		}
		if j > 0 && s[j-1] == ']' {
			j--
		}
		if j > 0 && (s[j-1] == '"' || s[j-1] == '\'') {
			j--
			if j > 0 && s[j-1] == '\\' {
				j--
			}
		}
		end := j
		for j > 0 && isNameByte(s[j-1]) {
			j--
		}
		if j < end && mayNameSecret(s[j:end]) && IsSecretName(s[j:end]) {
			return true
		}
		next := strings.IndexAny(s[i+1:], ":=")
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return false
}

// secretFlag reports whether s has a flag (-x, --name) whose name says it
// holds a credential.
func secretFlag(s string) bool {
	for i := strings.IndexByte(s, '-'); i >= 0; {
		if i == 0 || strings.IndexByte(" \t\r\n\"'`([{,;", s[i-1]) >= 0 {
			j := i
			for j < len(s) && s[j] == '-' {
				j++
			}
			k := j
			for k < len(s) && isNameByte(s[k]) {
				k++
			}
			if k > j && mayNameSecret(s[j:k]) && IsSecretName(s[j:k]) {
				return true
			}
		}
		next := strings.IndexByte(s[i+1:], '-')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return false
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-'
}

// secretRoots are what every name IsSecretName accepts holds, in lower
// case: its secret words (secretWords) and suffixes, "auth", DATABASE_URL.
var secretRoots = []string{"auth", "bearer", "token", "key", "secret", "pass", "pwd", "cred", "cookie", "dsn", "pat", "sig", "sas", "database", "hft"}

// mayNameSecret is a test of a name, cheaper than IsSecretName, that
// passes every name IsSecretName accepts.
func mayNameSecret(name string) bool {
	var buf [64]byte
	if len(name) > len(buf) {
		return true
	}
	low := buf[:len(name)]
	for i := 0; i < len(name); i++ {
		low[i] = name[i] | 0x20 // only letters matter
	}
	for _, r := range secretRootBytes {
		if bytes.Contains(low, r) {
			return true
		}
	}
	return false
}

var secretRootBytes = func() [][]byte {
	out := make([][]byte, len(secretRoots))
	for i, r := range secretRoots {
		out[i] = []byte(r)
	}
	return out
}()

// hasFold reports whether s contains word (in lower case) in any case of
// ASCII letters. Each case of word's first letter is looked for again only
// once the search has passed it: a letter that is absent (no B in a
// lower-case text) was looked for from every other candidate to the end,
// quadratic in s (a 2 MB output took 4 s).
func hasFold(s, word string) bool {
	lo, up := word[0], word[0]&^0x20
	next := func(c byte, from int) int {
		if j := strings.IndexByte(s[from:], c); j >= 0 {
			return from + j
		}
		return len(s)
	}
	i, j := next(lo, 0), next(up, 0)
	for {
		k := min(i, j)
		if len(s)-k < len(word) {
			return false
		}
		if strings.EqualFold(s[k:k+len(word)], word) {
			return true
		}
		if k == i {
			i = next(lo, k+1)
		}
		if k == j {
			j = next(up, k+1)
		}
	}
}

// tokenPrefix reports whether s holds one of tokenPrefixes: those that
// start with A (AWS's key ids, Google's API keys) are looked for where an
// A is.
func tokenPrefix(s string) bool {
	for i := strings.IndexByte(s, 'A'); i >= 0 && i+4 <= len(s); {
		for _, pre := range tokenPrefixes {
			if pre[0] == 'A' && s[i:i+4] == pre {
				return true
			}
		}
		next := strings.IndexByte(s[i+1:], 'A')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	for _, pre := range tokenPrefixes {
		if pre[0] != 'A' && strings.Contains(s, pre) {
			return true
		}
	}
	return false
}

// containsAny reports whether s contains one of subs.
func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// base64Run reports whether s has a run of n or more characters of
// base64's alphabet (letters, digits, + and /).
func base64Run(s string, n int) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '/' {
			if run++; run >= n {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

// mixedCase reports whether v has upper case, lower case and digits, as
// random base64 of some length has, and a word or a hash's hex has not.
func mixedCase(v string) bool {
	var upper, lower, digit bool
	for i := 0; i < len(v); i++ {
		c := v[i]
		upper = upper || c >= 'A' && c <= 'Z'
		lower = lower || c >= 'a' && c <= 'z'
		digit = digit || c >= '0' && c <= '9'
	}
	return upper && lower && digit
}

// pemLine reports whether v may be a full line of a PEM block's base64: 64
// characters (RFC 7468), 70 (OpenSSH's keys) or 76 (MIME's), mixed case
// with digits (mixedCase), and not starting as a path does.
func pemLine(v string) bool {
	n := len(v)
	return (n == 64 || n == 70 || n == 76) && v[0] != '/' && mixedCase(v)
}

// basicCredentials reports whether v is HTTP Basic credentials: base64 of
// user:password, readable text. "Basic configuration" decodes to none.
func basicCredentials(v string) bool {
	b, err := base64.StdEncoding.DecodeString(v)
	if err != nil {
		if b, err = base64.RawStdEncoding.DecodeString(v); err != nil {
			return false
		}
	}
	i := strings.IndexByte(string(b), ':')
	return i > 0 && utf8.Valid(b) && !strings.ContainsFunc(string(b), func(r rune) bool { return r < ' ' || r == 0x7f })
}
