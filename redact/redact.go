// Package redact keeps credentials out of every file decodebench writes.
//
// A Redactor learns the secrets of a campaign from its resolved engine
// command lines (version commands included), environments and variables:
// the values of flags and variables whose names say they hold a
// credential, header arguments, the credentials in URLs, and values that
// are credentials by their own form whatever names them (GitHub, Hugging
// Face, OpenAI-style, AWS, JWT and other well-known token formats, see
// tokenFormats). It then masks those forms wherever they appear and every
// secret value it learned wherever it appears again, as a substring of
// any text (a log line, an error, the stored scenario).
//
// The package imports nothing of decodebench's.
package redact

import (
	"encoding/json"
	"regexp"
	"sort"
	"strings"
	"unicode"
)

// Mask replaces a secret.
const Mask = "[redacted]"

// MinSecretLen is the shortest secret value masked as a substring of other
// text: shorter ones (say "1") would mask every digit. Shorter values are
// still masked where their form shows them (a flag's value, a variable's).
const MinSecretLen = 4

// Source is what a Redactor learns secrets from.
type Source struct {
	// Commands are the resolved engine command lines (command and arm
	// arguments), one per arm.
	Commands [][]string
	// Envs are the environments given to the engine, one per arm.
	Envs []map[string]string
	// Vars are the variables substituted into the scenario, by name, with
	// the values used (from the scenario's vars or the environment).
	Vars map[string]string
	// Shell are shell command lines run beside the engines (a bisect's
	// build command): their words are read as a command line's, and the
	// whole line for the secret forms (NAME=value, a URL's credentials).
	Shell []string
	// Secrets are further values known to be secret.
	Secrets []string
}

// Redactor masks secrets. The zero value and nil mask the forms only.
type Redactor struct {
	secrets  []string // longest first
	replacer *strings.Replacer
}

// New returns a Redactor that knows every secret found in src.
func New(src Source) *Redactor {
	r := &Redactor{}
	r.Learn(src)
	return r
}

// Learn makes every secret found in src a known secret, as New does: a
// campaign's redactor learns those of what runs beside its scenario (the
// environment, a bisect's build command) and stays the one redactor its
// files are written through.
func (r *Redactor) Learn(src Source) {
	var found []string
	for _, cmd := range src.Commands {
		_, f := maskArgs(cmd)
		found = append(found, f...)
	}
	for _, env := range src.Envs {
		_, f := maskEnv(env)
		found = append(found, f...)
	}
	for k, v := range src.Vars {
		if IsSecretName(k) {
			found = append(found, v)
		}
		found = append(found, formSecrets(v)...)
	}
	for _, sh := range src.Shell {
		_, f := maskWords(strings.Fields(sh), false)
		found = append(found, f...)
		found = append(found, formSecrets(sh)...)
	}
	r.Add(append(found, src.Secrets...)...)
}

// Add makes values known secrets.
func (r *Redactor) Add(values ...string) {
	seen := map[string]bool{}
	for _, s := range r.secrets {
		seen[s] = true
	}
	for _, v := range withLines(values) {
		v = strings.TrimSpace(v)
		if len(v) < MinSecretLen || v == Mask || isReference(v) || seen[v] {
			continue
		}
		seen[v] = true
		r.secrets = append(r.secrets, v)
		// The same value as it appears inside JSON text.
		if b, err := json.Marshal(v); err == nil {
			if q := string(b[1 : len(b)-1]); q != v && !seen[q] {
				seen[q] = true
				r.secrets = append(r.secrets, q)
			}
		}
	}
	sort.SliceStable(r.secrets, func(i, j int) bool { return len(r.secrets[i]) > len(r.secrets[j]) })
	pairs := make([]string, 0, 2*len(r.secrets))
	for _, s := range r.secrets {
		pairs = append(pairs, s, Mask)
	}
	r.replacer = strings.NewReplacer(pairs...)
}

// MinLineLen is the shortest line of a secret of several lines (a PEM
// key), or item of a list of secrets (k1,k2), that is masked on its own:
// a log is redacted a line at a time, so the whole value never appears in
// one.
const MinLineLen = 8

// withLines is values with each line of a value of several lines added,
// and each item of a list without blanks (--api-key k1,k2: an engine may
// print one key alone) of MinLineLen or more.
func withLines(values []string) []string {
	out := values
	for _, v := range values {
		var parts []string
		switch {
		case strings.ContainsAny(v, "\r\n"):
			parts = strings.FieldsFunc(v, func(r rune) bool { return r == '\n' || r == '\r' })
		case strings.Contains(v, ",") && !strings.ContainsAny(v, " \t"):
			parts = strings.Split(v, ",")
		}
		for _, l := range parts {
			if l = strings.TrimSpace(l); len(l) >= MinLineLen {
				out = append(out, l)
			}
		}
	}
	return out
}

// Text masks every known secret value in s, and the secret forms: flag
// values, NAME=value pairs, authorization headers, bearer tokens, URL
// credentials and query parameters.
func (r *Redactor) Text(s string) string {
	if s == "" {
		return s
	}
	if r != nil && r.replacer != nil {
		s = r.replacer.Replace(s)
	}
	return maskForms(s)
}

// Args returns a copy of a command line with secrets masked: the value of
// a flag whose name says it holds a credential (`--api-key X`,
// `--api-key=X`), secret header arguments (`-H "Authorization: Bearer X"`),
// URL credentials, and every known secret value.
func (r *Redactor) Args(args []string) []string {
	out, _ := maskArgs(args)
	for i, a := range out {
		out[i] = r.Text(a)
	}
	return out
}

// Env returns a copy of an environment with the values of secret-looking
// names masked, and known secrets masked in the others.
func (r *Redactor) Env(env map[string]string) map[string]string {
	if env == nil {
		return nil
	}
	out, _ := maskEnv(env)
	for k, v := range out {
		out[k] = r.Text(v)
	}
	return out
}

// secretWords are the words of a name that say it holds a credential.
var secretWords = map[string]bool{
	"auth": true, "authorization": true, "authn": true, "bearer": true,
	"token": true, "key": true, "apikey": true, "secret": true,
	"password": true, "passwd": true, "pass": true, "pwd": true, "passphrase": true,
	"credential": true, "credentials": true, "creds": true,
	"cookie": true, "cookies": true, "dsn": true, "privatekey": true,
	"pat": true, // a personal access token: GH_PAT
	"hft": true, // llama.cpp's short -hft, its --hf-token
	// A pre-signed URL's signature grants access until it expires: S3's
	// X-Amz-Signature, GCS's X-Goog-Signature, an Azure SAS's sig.
	"sig": true, "signature": true, "sas": true,
}

// secretSuffixes catch run-together words ("authtoken", "accesskey").
var secretSuffixes = []string{"token", "key", "secret", "password", "passwd", "auth", "credential", "credentials", "cookie", "signature"}

// IsSecretName reports whether a flag, variable, header or parameter name
// says it holds a credential: one of its words (split at non-letters and
// camel case) is auth, key, token, secret, password, passwd, pass, bearer,
// credential, cookie or dsn, or ends in one, numbered or not (API_KEY2);
// DATABASE_URL too. Plurals that count things ("tokens", "keys") do not.
func IsSecretName(name string) bool {
	words := splitWords(name)
	// A name numbered at its end (API_KEY2, HF_TOKEN2, DB_PASSWORD1,
	// --api-key2) is the name's: the digits are no word of their own.
	for i, w := range words {
		words[i] = strings.TrimRight(w, "0123456789")
	}
	for i, w := range words {
		if secretWords[w] {
			return true
		}
		if w == "url" && i > 0 && words[i-1] == "database" {
			return true
		}
		if strings.HasPrefix(w, "auth") && !strings.HasPrefix(w, "author") {
			return true
		}
		for _, suf := range secretSuffixes {
			if len(w) > len(suf) && strings.HasSuffix(w, suf) {
				return true
			}
		}
	}
	return false
}

func splitWords(name string) []string {
	var words []string
	var cur []rune
	prevLower := false
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	for _, c := range name {
		switch {
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			flush()
			prevLower = false
			continue
		case unicode.IsUpper(c) && prevLower:
			flush()
		}
		cur = append(cur, c)
		prevLower = unicode.IsLower(c) || unicode.IsDigit(c)
	}
	flush()
	return words
}

var (
	reference      = regexp.MustCompile(`^\$\{[A-Za-z_][A-Za-z0-9_]*\}$`)
	referenceStart = regexp.MustCompile(`^\$\{[A-Za-z_][A-Za-z0-9_]*\}`)
)

// isReference reports a ${NAME} reference, which names a secret but is none.
func isReference(v string) bool { return reference.MatchString(v) }

// anyReference is a ${NAME} reference anywhere in a value.
var anyReference = regexp.MustCompile(`\$\{[A-Za-z_][A-Za-z0-9_]*\}`)

// maskAroundReferences masks a secret-named value's text but keeps its
// ${NAME} references ("Bearer ${TOKEN}" is stored "[redacted]${TOKEN}"):
// masked whole it lost them, and check then found the record's variables
// unused by the stored scenario. Each stretch of text between references
// that holds a letter or a digit is one mask; a value without references
// is one mask.
func maskAroundReferences(v string) string {
	refs := anyReference.FindAllStringIndex(v, -1)
	if len(refs) == 0 {
		return Mask
	}
	var b strings.Builder
	last := 0
	lit := func(s string) {
		if strings.ContainsFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
			b.WriteString(Mask)
		} else {
			b.WriteString(s)
		}
	}
	for _, r := range refs {
		lit(v[last:r[0]])
		b.WriteString(v[r[0]:r[1]])
		last = r[1]
	}
	lit(v[last:])
	return b.String()
}

// onlyReferences reports a value of references and masks alone, as
// maskAroundReferences leaves it ("[redacted]${TOKEN}").
func onlyReferences(v string) bool {
	rest := strings.ReplaceAll(anyReference.ReplaceAllString(v, ""), Mask, "")
	return anyReference.MatchString(v) && !strings.ContainsFunc(rest, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) })
}

// namesSecrets reports a value of references around text that holds no
// credential-looking word ("Bearer ${TOKEN}", "k-${KEY}-1"): a --set
// override as typed, which names secrets and holds none.
func namesSecrets(v string) bool {
	if !anyReference.MatchString(v) {
		return false
	}
	for _, w := range strings.FieldsFunc(strings.ReplaceAll(anyReference.ReplaceAllString(v, " "), Mask, " "), func(r rune) bool { return r == ' ' || r == '\t' || r == ':' || r == '=' }) {
		if CredentialLike(w) {
			return false
		}
	}
	return true
}

// keepReferences is masked (a value the forms or a flag's rule masked)
// with the ${NAME} references of orig it lost put back after it, so that
// what names a variable still names it: "--api-key=k-${TOKEN}" is stored
// "--api-key=[redacted]${TOKEN}".
func keepReferences(orig, masked string) string {
	if masked == orig {
		return masked
	}
	for _, ref := range anyReference.FindAllString(orig, -1) {
		if !strings.Contains(masked, ref) {
			masked += ref
		}
	}
	return masked
}

// startsReference reports whether the value v found at the start of s is
// all or part of a ${NAME} reference there: free text ends a value at a
// closing brace, so `key=${API_KEY}` finds the value "${API_KEY".
func startsReference(s, v string) bool {
	loc := referenceStart.FindStringIndex(s)
	return loc != nil && len(v) <= loc[1]
}

// maskEnv masks the values of secret names and the secret forms in the
// other values.
func maskEnv(env map[string]string) (map[string]string, []string) {
	out := make(map[string]string, len(env))
	var found []string
	for k, v := range env {
		if IsSecretName(k) {
			if !isReference(v) {
				found = append(found, v)
				found = append(found, formSecrets(v)...)
				v = Mask
			}
		} else {
			var f []string
			v, f = maskValue(v)
			found = append(found, f...)
		}
		out[k] = v
	}
	return out, found
}

var headerName = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

func isSecretHeader(name string) bool {
	return IsSecretName(name) || strings.EqualFold(name, "proxy-authorization")
}

// maskHeader masks a header argument "Name: value" whose name says it
// holds a credential, and the forms in any other value.
func maskHeader(h string) (string, []string) {
	name, val, ok := strings.Cut(h, ":")
	if ok && headerName.MatchString(strings.TrimSpace(name)) && isSecretHeader(strings.TrimSpace(name)) && strings.TrimSpace(val) != "" {
		val = strings.TrimSpace(val)
		found := []string{val}
		if _, tok, ok := strings.Cut(val, " "); ok { // "Bearer TOKEN"
			found = append(found, strings.TrimSpace(tok))
		}
		return name + ": " + Mask, found
	}
	return maskValue(h)
}

// maskValue masks the secret forms inside one value and returns what they
// hid.
func maskValue(v string) (string, []string) {
	found := formSecrets(v)
	if n, val, ok := strings.Cut(v, ":"); ok && headerName.MatchString(n) && isSecretHeader(n) && strings.TrimSpace(val) != "" {
		h, f := maskHeader(v)
		return h, append(found, f...)
	}
	return maskForms(v), found
}
