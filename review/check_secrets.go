package review

import (
	"fmt"
	"strings"

	"github.com/decodebench/decodebench/redact"
	"github.com/decodebench/decodebench/schema"
)

// checkSecrets names each place of a record, or of its runs, that holds
// what decodebench masks as it writes one (a secret form, a credential
// flag's value, a secret-named variable's value), by its path and never
// its value: a record another tool or an older decodebench wrote, or one
// edited by hand, may hold a credential in clear, and check is what a
// reviewer runs before it is committed or published.
func checkSecrets(what string, v any) []Problem {
	paths := redact.Leaks(v, schema.VarFromEnvironment)
	if len(paths) == 0 {
		return nil
	}
	more := ""
	if len(paths) > 5 {
		more = fmt.Sprintf(" and %d more", len(paths)-5)
		paths = paths[:5]
	}
	return []Problem{{"Data", fmt.Sprintf("%s holds what looks like a credential in clear (not shown) at %s%s: decodebench masks it when it writes a record; remove it, and revoke it if it is real", what, strings.Join(paths, ", "), more)}}
}

// recordSecrets is checkSecrets of the record's data block.
func recordSecrets(rec *schema.Record) []Problem {
	return checkSecrets("the record", rec)
}

// runSecrets is checkSecrets of its runs.
func runSecrets(runs []schema.Run) []Problem {
	return checkSecrets("runs.jsonl", &runs)
}
