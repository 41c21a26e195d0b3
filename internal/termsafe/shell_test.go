package termsafe

import "testing"

// A command line shows each argument as the shell would take it: plain
// words bare, anything the shell would read otherwise single-quoted, and
// a control character escaped inside its quotes.
func TestShellJoin(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"llama-server", "--port", "8080"}, "llama-server --port 8080"},
		{[]string{"sh", "-c", "echo $HOME; ls"}, `sh -c 'echo $HOME; ls'`},
		{[]string{"echo", "it's", ""}, `echo 'it'\''s' ''`},
		{[]string{"touch", "pwned\r\x1b[2K\u202e"}, `touch 'pwned\r\x1b[2K\u202e'`},
	} {
		if got := ShellJoin(tc.args); got != tc.want {
			t.Errorf("ShellJoin(%q) = %s, want %s", tc.args, got, tc.want)
		}
	}
}
