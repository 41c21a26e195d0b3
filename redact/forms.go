package redact

import (
	"regexp"
	"strings"
	"unicode"
)

// A form is a pattern of free text whose group "v" is a secret when the
// group "n" (if any) names one.
type form struct {
	re *regexp.Regexp
	// ok decides from the match's name group (empty when none) and value
	// whether the value is a secret.
	ok func(name, value string) bool
}

// Stop characters end a value in free text: quotes and backticks (Markdown,
// JSON, shell), brackets and separators, so that masking never eats the
// syntax around a value.
var forms = []form{
	// scheme://user:password@host and scheme://token@host
	{re: regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://(?:(?P<n>[^/\s:@"'` + "`" + `<>\\]*):)?(?P<v>[^/\s@"'` + "`" + `<>\\]+)@`),
		ok: func(_, v string) bool { return v != Mask }},
	// Authorization: Bearer X, Cookie: a=b, X-Api-Key: X
	{re: regexp.MustCompile(`(?i)(?:^|[^A-Za-z0-9_-])(?P<n>(?:proxy-)?authorization|(?:set-)?cookie|x-[a-z0-9-]+|[a-z0-9-]*api-?key)[ \t]*:[ \t]*(?P<v>[^"'` + "`" + `\\\r\n \t][^"'` + "`" + `\\\r\n]*)`),
		ok: func(n, _ string) bool { return isSecretHeader(n) }},
	// Bearer X anywhere
	{re: regexp.MustCompile(`(?i)\bbearer[ \t]+(?P<v>[A-Za-z0-9._~+/=-]+)`),
		ok: func(_, v string) bool { return true }},
	// --api-key X, --api-key=X, -api-key X
	{re: regexp.MustCompile(`(?:^|[\s"'` + "`" + `(\[{,;])(?P<n>--?[A-Za-z][A-Za-z0-9_.-]*)(?:=|[ \t]+)(?P<v>[^\s"'` + "`" + `,;)\]}]+)`),
		ok: func(n, v string) bool { return IsSecretName(strings.TrimLeft(n, "-")) && !strings.HasPrefix(v, "-") }},
	// NAME=value, ?api_key=value&, &X-Amz-Signature=value
	{re: regexp.MustCompile(`(?:^|[^A-Za-z0-9_.-])(?P<n>[A-Za-z_][A-Za-z0-9_-]*)=(?P<v>[^\s"'` + "`" + `,;&#)\]}]+)`),
		ok: func(n, _ string) bool { return IsSecretName(n) }},
	// "password": "v" and 'api_key': 'v' (a JSON or Python dict of
	// settings printed at start-up)
	{re: regexp.MustCompile(`["'](?P<n>[A-Za-z_][A-Za-z0-9_.-]*)["'][ \t]*:[ \t]*["'](?P<v>[^"'\\\r\n]+)["']`),
		ok: func(n, v string) bool { return settingName(n) && len(v) >= MinSecretLen }},
	// api_key: v and hf_token = v (a YAML or INI setting echoed), where the
	// value looks like a credential: "EOS token = 2" and "auth_mode:
	// disabled" are none.
	{re: regexp.MustCompile(`(?:^|[\s{,(])(?P<n>[A-Za-z_][A-Za-z0-9_.-]*)(?:[ \t]*:[ \t]+|[ \t]*=[ \t]+|[ \t]+=[ \t]*)(?P<v>[^\s"'` + "`" + `,;)\]}]{8,})`),
		ok: func(n, v string) bool { return settingName(n) && CredentialLike(v) }},
	// A credential known by its own form, whatever names it (GH_PAT,
	// HF_HUB, a bare argument, a line of a log).
	{re: regexp.MustCompile(`(?:^|[^A-Za-z0-9_])(?P<v>` + strings.Join(tokenFormats, "|") + `)`),
		ok: func(_, _ string) bool { return true }},
	{re: regexp.MustCompile(`(?:^|[^A-Za-z0-9_])(?P<v>` + strings.Join(prefixedTokens, "|") + `)`),
		ok: func(_, v string) bool { return randomLooking(v) }},
}

// tokenFormats are the well-known credential formats whose whole shape
// says what they are: Stripe, Slack, Google API keys, AWS access key ids,
// JSON Web Tokens, and Slack's and Discord's webhook URLs. A format ends at a character its alphabet does not
// have (\b for those ending in letters and digits).
var tokenFormats = []string{
	`[sr]k_(?:live|test)_[A-Za-z0-9]{16,}\b`,
	`xox[abposr]-[0-9]{6,}-[A-Za-z0-9-]{6,}`,
	`AIza[A-Za-z0-9_-]{35}`,
	`(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA|ABIA|ACCA)[A-Z0-9]{16}\b`,
	`eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*`,
	// Webhook URLs: whoever has one may post to the channel.
	`https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/-]{16,}`,
	`https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/[0-9]+/[A-Za-z0-9_-]{16,}`,
}

// prefixedTokens are the credential formats known by a prefix and a run
// of random characters: GitHub (classic, fine-grained, OAuth, app and
// refresh tokens), Hugging Face, OpenAI-style keys (sk-, sk-proj-,
// sk-ant-), GitLab. A prefix alone is a weak sign (a folder may be called
// hf_checkpoints), so the run must also look random (randomLooking).
var prefixedTokens = []string{
	`gh[pousr]_[A-Za-z0-9]{12,}\b`,
	`github_pat_[A-Za-z0-9_]{12,}`,
	`hf_[A-Za-z0-9]{12,}\b`,
	`sk-[A-Za-z0-9_-]{12,}`,
	`glpat-[A-Za-z0-9_-]{12,}`,
}

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
	for _, f := range forms {
		s = replaceGroup(f, s, func(string) string { return Mask })
	}
	return s
}

// formSecrets returns the values the forms find in s.
func formSecrets(s string) []string {
	var out []string
	for _, f := range forms {
		replaceGroup(f, s, func(v string) string { out = append(out, v); return v })
	}
	return out
}

// replaceGroup replaces the "v" group of every match of f that f.ok accepts.
func replaceGroup(f form, s string, repl func(string) string) string {
	vi, ni := f.re.SubexpIndex("v"), f.re.SubexpIndex("n")
	var b strings.Builder
	last := 0
	for _, m := range f.re.FindAllStringSubmatchIndex(s, -1) {
		vs, ve := m[2*vi], m[2*vi+1]
		if vs < 0 {
			continue
		}
		name := ""
		if ni >= 0 && m[2*ni] >= 0 {
			name = s[m[2*ni]:m[2*ni+1]]
		}
		v := s[vs:ve]
		if strings.HasPrefix(s[vs:], Mask) || startsReference(s[vs:], v) || !f.ok(name, v) {
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
