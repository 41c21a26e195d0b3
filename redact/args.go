package redact

import (
	"strings"
	"unicode"
)

// isFlag reports whether an argument is a flag (not "-" and not a negative
// number).
func isFlag(a string) bool {
	if len(a) < 2 || a[0] != '-' {
		return false
	}
	c := a[1]
	return c == '-' || unicode.IsLetter(rune(c))
}

var headerFlags = map[string]bool{"H": true, "header": true, "headers": true, "http-header": true}

// maskArgs masks the secret forms of a command line and returns the
// secrets it found.
func maskArgs(args []string) (out, found []string) { return maskWords(args, true) }

// maskWords is maskArgs of an argument vector (argv), or of a shell
// line's words split at blanks, whose curl passwords the text forms find
// (a word may be quoted, or end in a separator).
func maskWords(args []string, argv bool) (out, found []string) {
	out = append([]string(nil), args...)
	var curl map[int]bool
	if argv {
		found, curl = maskCurlArgs(out)
	}
	mask := func(i int) {
		if !isReference(out[i]) {
			found = append(found, out[i])
			out[i] = Mask
		}
	}
	for i := 0; i < len(out); i++ {
		a := out[i]
		if curl[i] {
			continue
		}
		if !isFlag(a) {
			// `Name:` alone, its value in the next argument.
			if n, ok := strings.CutSuffix(a, ":"); ok && headerName.MatchString(n) && isSecretHeader(n) && i+1 < len(out) {
				mask(i + 1)
				i++
				continue
			}
			v, f := maskValue(a)
			out[i], found = v, append(found, f...)
			continue
		}
		flag, val, inline := strings.Cut(a, "=")
		name := strings.TrimLeft(flag, "-")
		switch {
		case IsSecretName(name):
			if inline {
				if !isReference(val) {
					found = append(found, val)
					out[i] = flag + "=" + Mask
				}
			} else if i+1 < len(out) && !strings.HasPrefix(out[i+1], "--") {
				mask(i + 1)
				i++
			}
		case headerFlags[name]:
			if inline {
				v, f := maskHeader(val)
				out[i], found = flag+"="+v, append(found, f...)
			} else if i+1 < len(out) && !strings.HasSuffix(strings.TrimSpace(out[i+1]), ":") {
				v, f := maskHeader(out[i+1])
				out[i+1], found = v, append(found, f...)
				i++
			}
		case inline:
			v, f := maskValue(val)
			out[i], found = flag+"="+v, append(found, f...)
		}
	}
	return out, found
}
