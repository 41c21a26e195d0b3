package redact

import (
	"regexp"
	"strings"
	"unicode"
)

// A form is a pattern of free text whose group "v" is a secret when the
// group "n" (if any) names one. A pattern may name several alternatives
// "v" (a value in double quotes, in single quotes or bare): the one that
// matched is the value.
type form struct {
	re     *regexp.Regexp
	vs, ns []int // the indexes of the groups named v and n
	// pre is a cheap test that s may hold a match (a literal the pattern
	// needs), or need one that a probe keeps (a secret name before a
	// separator): the regexp runs only where it passes, as most lines
	// of an engine's log hold no secret.
	pre  func(s string) bool
	need need
	// ok decides from the match's name group (empty when none) and value
	// whether the value is a secret.
	ok func(name, value string) bool
}

// need is the prefilter of a form that a probe keeps.
type need int8

const (
	needPre  need = iota // form.pre
	needName             // namedBeforeSep
	needFlag             // secretFlag
)

// newForm compiles a form; pre is its prefilter, a func(string) bool or
// the need a probe keeps.
func newForm(pattern string, pre any, ok func(name, value string) bool) form {
	f := form{re: regexp.MustCompile(pattern), ok: ok}
	switch p := pre.(type) {
	case need:
		f.need = p
	case func(string) bool:
		f.pre = p
	}
	for i, n := range f.re.SubexpNames() {
		switch n {
		case "v":
			f.vs = append(f.vs, i)
		case "n":
			f.ns = append(f.ns, i)
		}
	}
	return f
}

// Stop characters end a value in free text: quotes and backticks (Markdown,
// JSON, shell), brackets and separators, so that masking never eats the
// syntax around a value.
const stop = `\s"'` + "`"

// quoted is a value in double quotes (JSON escapes kept inside), in single
// quotes, or in escaped double quotes (JSON inside a JSON string).
const quoted = `(?:"(?P<v>(?:[^"\\\r\n]|\\[^\r\n])+)"|'(?P<v>[^'\r\n]+)'|\\"(?P<v>(?:[^"\\\r\n]|\\[^"\r\n])+)\\")`

var forms = []form{
	// A PEM private key's body in one text: a file's lines, or a JSON
	// string's \n-escaped ones (a service account's "private_key").
	newForm(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?P<v>(?:[A-Za-z0-9+/=:,\s]|\\[rn]|-[A-Za-z0-9])+)`,
		func(s string) bool { return strings.Contains(s, "PRIVATE KEY") },
		func(_, v string) bool { return base64Run(v, 16) }),
	// scheme://user:password@host and scheme://token@host
	newForm(`[A-Za-z][A-Za-z0-9+.-]*://(?:(?P<n>[^/\s:@"'`+"`"+`<>\\]*):)?(?P<v>[^/\s@"'`+"`"+`<>\\]+)@`,
		func(s string) bool { return strings.Contains(s, "://") && strings.Contains(s, "@") },
		func(_, v string) bool { return v != Mask }),
	// Authorization: Bearer X, Cookie: a=b, X-Api-Key: X
	newForm(`(?i)(?:^|[^A-Za-z0-9_-])(?P<n>(?:proxy-)?authorization|(?:set-)?cookie|x-[a-z0-9-]+|[a-z0-9-]*api-?key)[ \t]*:[ \t]*(?P<v>[^"'`+"`"+`\\\r\n \t][^"'`+"`"+`\\\r\n]*)`,
		needName, func(n, _ string) bool { return isSecretHeader(n) }),
	// Bearer X, Basic X (user:password in base64) anywhere
	newForm(`(?i)\bbearer[ \t]+(?P<v>[A-Za-z0-9._~+/=-]+)`,
		func(s string) bool { return hasFold(s, "bearer") },
		func(_, v string) bool { return true }),
	newForm(`(?i)\bbasic[ \t]+(?P<v>[A-Za-z0-9+/]{4,}={0,2})`,
		func(s string) bool { return hasFold(s, "basic") }, func(_, v string) bool { return basicCredentials(v) }),
	// --api-key X, --api-key=X, -api-key X, --api-key="X", '--api-key',
	// 'X' (a Python list of arguments); every key of --api-key k1,k2
	newForm(`(?:^|[\s"'`+"`"+`(\[{,;])(?P<n>--?[A-Za-z][A-Za-z0-9_.-]*)(?:["'],[ \t]*["']|=["']?|[ \t]+["']?)(?P<v>[^`+stop+`,;)\]}]+(?:,[^`+stop+`,;)\]}]+)*)`,
		needFlag, func(n, v string) bool { return IsSecretName(strings.TrimLeft(n, "-")) && !strings.HasPrefix(v, "-") }),
	// NAME=value, NAME="value", NAME='value' (export -p, declare -x, a
	// Python repr's api_key='...'), ?api_key=value&, &X-Amz-Signature=value
	newForm(`(?:^|[^A-Za-z0-9_.-])(?P<n>[A-Za-z_][A-Za-z0-9_-]*)=(?:`+quoted+`|(?P<v>[^`+stop+`,;&#)\]}]+))`,
		needName, func(n, _ string) bool { return IsSecretName(n) }),
	// "password": "v", 'api_key': 'v', api_key = "v",
	// os.environ['DB_PASSWORD'] = "v", {\"password\":\"v\"} (JSON in a
	// JSON string), {"Authorization":["Basic v"]} (Go's http.Header): a
	// setting printed at start-up, in JSON, Python, TOML or a shell
	newForm(`(?:^|[^A-Za-z0-9_.\\-])(?:\\?["'])?(?P<n>[A-Za-z_][A-Za-z0-9_.-]*)(?:\\?["'])?\]?[ \t]*[:=][ \t]*(?:\[[ \t]*)?`+quoted,
		needName, func(n, v string) bool { return settingName(n) && len(v) >= MinSecretLen }),
	// api_key: v, PASSWORD:v and hf_token = v (a YAML or INI setting
	// echoed), where the value looks like a credential: "EOS token = 2"
	// and "auth_mode: disabled" are none.
	newForm(`(?:^|[\s{,(])(?P<n>[A-Za-z_][A-Za-z0-9_.-]*)(?:[ \t]*:[ \t]*|[ \t]*=[ \t]+|[ \t]+=[ \t]*)(?P<v>[^`+stop+`,;)\]}]{8,})`,
		needName, func(n, v string) bool { return settingName(n) && CredentialLike(v) }),
	// A line of a PEM key's body alone (a log is redacted a line at a
	// time): base64 and nothing else, as long as a full line of one
	// (pemLine), upper and lower case with digits (a hash's hex has one
	// case), not a path (/tmp/TestX1/002/stop is base64's alphabet too).
	newForm(`(?m)^[ \t]*(?P<v>[A-Za-z0-9+/]{64,76})[ \t]*\r?$`,
		func(s string) bool { return base64Run(s, 64) }, func(_, v string) bool { return pemLine(v) }),
	// A credential known by its own form, whatever names it (GH_PAT,
	// HF_HUB, a bare argument, a line of a log).
	newForm(`(?:^|[^A-Za-z0-9_])(?P<v>`+strings.Join(tokenFormats, "|")+`)`,
		tokenPrefix,
		func(_, _ string) bool { return true }),
	newForm(`(?:^|[^A-Za-z0-9_])(?P<v>`+strings.Join(prefixedTokens, "|")+`)`,
		func(s string) bool { return containsAny(s, prefixedPrefixes) },
		func(_, v string) bool { return randomLooking(v) }),
}

// tokenFormats are the well-known credential formats whose whole shape
// says what they are: Stripe, Slack, Google API keys, AWS access key ids,
// JSON Web Tokens, Google OAuth access tokens, npm and PyPI tokens, and
// Slack's and Discord's webhook URLs. A format ends at a character its
// alphabet does not have (\b for those ending in letters and digits).
var tokenFormats = []string{
	`[sr]k_(?:live|test)_[A-Za-z0-9]{16,}\b`,
	`xox[abposr]-[0-9]{6,}-[A-Za-z0-9-]{6,}`,
	`AIza[A-Za-z0-9_-]{35}`,
	`(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA|ABIA|ACCA)[A-Z0-9]{16}\b`,
	`eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*`,
	// Google's OAuth access tokens, npm's and PyPI's API tokens.
	`ya29\.[A-Za-z0-9_-]{20,}`,
	`npm_[A-Za-z0-9]{36}\b`,
	`pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{16,}`,
	// Webhook URLs: whoever has one may post to the channel.
	`https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/-]{16,}`,
	`https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/[0-9]+/[A-Za-z0-9_-]{16,}`,
}

// tokenPrefixes are literals one of which each of tokenFormats starts
// with (its prefilter).
var tokenPrefixes = []string{"k_live_", "k_test_", "xox", "AIza", "AKIA", "ASIA", "AGPA", "AIDA", "AROA", "ANPA", "ANVA", "AIPA", "ABIA", "ACCA",
	"eyJ", "ya29.", "npm_", "pypi-", "hooks.slack.com", "discord"}

// prefixedTokens are the credential formats known by a prefix and a run
// of random characters: GitHub (classic, fine-grained, OAuth, app and
// refresh tokens), Hugging Face, OpenAI-style keys (sk-, sk-proj-,
// sk-ant-), GitLab, Groq (gsk_), NVIDIA's API catalog (nvapi-). A prefix alone is a weak sign (a folder may be called
// hf_checkpoints), so the run must also look random (randomLooking).
var prefixedTokens = []string{
	`gh[pousr]_[A-Za-z0-9]{12,}\b`,
	`github_pat_[A-Za-z0-9_]{12,}`,
	`hf_[A-Za-z0-9]{12,}\b`,
	`sk-[A-Za-z0-9_-]{12,}`,
	`glpat-[A-Za-z0-9_-]{12,}`,
	`gsk_[A-Za-z0-9]{12,}\b`,
	`nvapi-[A-Za-z0-9_-]{12,}`,
}

// prefixedPrefixes are the literals prefixedTokens start with.
var prefixedPrefixes = []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "hf_", "sk-", "glpat-", "gsk_", "nvapi-"}

// randomLooking reports whether what follows a token's prefix (after its
// first _ or -) looks random: 20 characters or more whatever they are, or
// 12 or more that mix upper case with lower case or digits, as a token's
// base62 does and a word, a model's name or a folder's (hf_checkpoints2024,
// sk-learn-model-v2) does not.
func randomLooking(v string) bool {
	body := v[strings.IndexAny(v, "_-")+1:]
	if len(body) >= 20 {
		return true
	}
	var upper, other bool
	for _, r := range body {
		switch {
		case r >= 'A' && r <= 'Z':
			upper = true
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			other = true
		}
	}
	return len(body) >= 12 && upper && other
}

// maskForms masks the value of every secret form in s.
func maskForms(s string) string {
	s = maskCurlText(s, nil)
	var p probe
	for _, f := range forms {
		s = replaceGroup(f, s, &p, func(string) string { return Mask })
	}
	return s
}

// formSecrets returns the values the forms find in s.
func formSecrets(s string) []string {
	var out []string
	maskCurlText(s, func(v string) { out = append(out, v) })
	var p probe
	for _, f := range forms {
		replaceGroup(f, s, &p, func(v string) string { out = append(out, v); return v })
	}
	return out
}

// replaceGroup replaces the "v" group of every match of f that f.ok accepts.
func replaceGroup(f form, s string, p *probe, repl func(string) string) string {
	switch f.need {
	case needName:
		if !p.named(s) {
			return s
		}
	case needFlag:
		if !p.flag(s) {
			return s
		}
	default:
		if !f.pre(s) {
			return s
		}
	}
	var b strings.Builder
	last := 0
	for _, m := range f.re.FindAllStringSubmatchIndex(s, -1) {
		vs, ve := group(m, f.vs)
		if vs < 0 {
			continue
		}
		name := ""
		if ns, ne := group(m, f.ns); ns >= 0 {
			name = s[ns:ne]
		}
		v := s[vs:ve]
		if strings.HasPrefix(s[vs:], Mask) || startsReference(s[vs:], v) {
			continue
		}
		if !f.ok(name, v) {
			// A value that is none may hold one, which the match hid
			// from the next: {"msg":"{\"password\":\"v\"}"}. It is
			// read again with the character before it, never a name's.
			if vs > m[0] && ve-vs+1 < m[1]-m[0] {
				if in := replaceGroup(f, s[vs-1:ve], &probe{}, repl); in != s[vs-1:ve] {
					b.WriteString(s[last : vs-1])
					b.WriteString(in)
					last = ve
				}
			}
			continue
		}
		b.WriteString(s[last:vs])
		b.WriteString(repl(v))
		last = ve
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// group is the span of the first of the groups idx that matched in m, or
// -1, -1.
func group(m, idx []int) (int, int) {
	for _, i := range idx {
		if m[2*i] >= 0 {
			return m[2*i], m[2*i+1]
		}
	}
	return -1, -1
}

// bareWords are secret words too common alone as a key of free text
// (decodebench's own JSON has "key": "engine.command") to mask what
// follows them there; compounds (api_key, hf_token) and the strong
// words (password, secret) are masked.
var bareWords = map[string]bool{"key": true, "token": true, "auth": true, "pass": true, "pat": true, "sig": true, "sas": true, "signature": true, "bearer": true}

// settingName reports whether a setting's name in free text says it
// holds a credential (IsSecretName, but not one of bareWords alone).
func settingName(n string) bool {
	return IsSecretName(n) && !bareWords[strings.ToLower(n)]
}

// CredentialLike reports whether a value named as a secret in free text
// looks like one: at least 8 characters without a blank, not a path, and
// letters with digits, or 16 characters or more. A short or plain value
// (auth_mode: disabled, a socket's path) would be masked wherever the
// same text appears.
func CredentialLike(v string) bool {
	if len(v) < 8 || strings.ContainsAny(v, " \t") || strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") || strings.HasPrefix(v, ".") {
		return false
	}
	return len(v) >= 16 || strings.ContainsFunc(v, unicode.IsLetter) && strings.ContainsFunc(v, unicode.IsDigit)
}
