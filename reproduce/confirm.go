package reproduce

import (
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
	return Ask(in, out, "Run these commands?")
}

// Ask asks question and reads one line of answer: a yes is "y" or "yes",
// anything else, or no input at all, a no. It reads a byte at a time, no
// further than the answer's newline, so that a second question (a resume
// asks one before it reads what the data folder names, another before it
// runs) reads the next line of the same input.
func Ask(in io.Reader, out io.Writer, question string) (bool, error) {
	fmt.Fprint(out, question+" [y/N] ")
	var line []byte
	b := make([]byte, 1)
	for len(line) < maxAnswerBytes {
		n, err := in.Read(b)
		if n == 1 {
			if b[0] == '\n' {
				break
			}
			line = append(line, b[0])
			continue
		}
		if err != nil {
			if len(line) == 0 {
				return false, nil
			}
			break
		}
	}
	if len(line) >= maxAnswerBytes {
		return false, nil
	}
	a := strings.ToLower(strings.TrimSpace(string(line)))
	return a == "y" || a == "yes", nil
}
