package review

import (
	"bytes"
	"fmt"

	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/redact"
)

// checkSecrets is a problem where text (the file name, a record or its
// stored scenario) holds what decodebench masks wherever it writes it: a
// credential by its own form (a GitHub or Hugging Face token, a key of
// known shape), a secret flag's or setting's value, a URL's password. A
// record decodebench wrote holds none (its masks, [redacted], are no
// secret); one that does was edited or written before that form was
// masked, and the problem names the line, never the secret.
func checkSecrets(section, name string, text []byte) []Problem {
	var none *redact.Redactor // the forms alone: no learned value
	if masked := none.Text(string(text)); masked == string(text) {
		return nil
	}
	line := 1
	for rest := text; len(rest) > 0; line++ {
		l := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			l, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		if none.Text(string(l)) != string(l) {
			break
		}
	}
	return []Problem{{section, fmt.Sprintf("%s line %d holds what decodebench masks as a credential wherever it writes one: "+
		"the file was edited, or written before decodebench masked that form; take it out (and rotate the credential: the file may have been shared)", termsafe.String(name), line)}}
}
