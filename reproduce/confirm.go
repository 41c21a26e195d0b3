package reproduce

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// maxAnswerBytes bounds the answer read from standard input: a yes is
// three letters, and an input without a newline (/dev/zero) must not
// grow without end.
const maxAnswerBytes = 4 << 10

// Confirm asks for a yes on standard input; anything else, or no input at
// all (a CI job without --yes), is a no.
func Confirm(in io.Reader, out io.Writer) (bool, error) {
	fmt.Fprint(out, "Run these commands? [y/N] ")
	line, err := bufio.NewReader(io.LimitReader(in, maxAnswerBytes)).ReadString('\n')
	if err != nil && line == "" {
		return false, nil
	}
	a := strings.ToLower(strings.TrimSpace(line))
	return a == "y" || a == "yes", nil
}
