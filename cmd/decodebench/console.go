package main

import (
	"os"
	"sync"

	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/redact"
)

// Everything decodebench prints goes through stdout and stderr: each line
// is redacted the way every file decodebench writes is (credential forms
// always; a campaign's own secrets once its scenario is loaded, see
// learnSecrets) and then escaped by termsafe, so that neither a secret nor
// a control sequence from an engine, a record or a file name reaches the
// terminal. Progress draws its own live line through termsafe.Control.
var (
	stdout = termsafe.NewWriter(os.Stdout, consoleRedact)
	stderr = termsafe.NewWriter(os.Stderr, consoleRedact)

	consoleMu       sync.Mutex
	consoleRedactor *redact.Redactor // nil: credential forms only
)

func consoleRedact(s string) string {
	consoleMu.Lock()
	r := consoleRedactor
	consoleMu.Unlock()
	return r.Text(s)
}

// learnSecrets makes the console mask r's secrets from now on.
func learnSecrets(r *redact.Redactor) {
	consoleMu.Lock()
	consoleRedactor = r
	consoleMu.Unlock()
}
