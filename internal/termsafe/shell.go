package termsafe

import "strings"

// ShellJoin writes a command line for a person to read: an argument that
// holds a shell metacharacter is single-quoted, and one that holds a
// control character, an escape sequence or a bidirectional override is
// shown with it escaped (\r, \x1b, \u202e) and quoted, so that no stored
// argument can redraw the line it is shown on.
func ShellJoin(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		if e := String(a); e != a {
			a = "'" + strings.ReplaceAll(e, "'", `'\''`) + "'"
		} else if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`|&;<>()*?[]#~") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		out[i] = a
	}
	return strings.Join(out, " ")
}
