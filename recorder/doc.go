// Package recorder writes and reads records: the Markdown record with its
// data block (markdown*.go, one file per section), the sentences that word
// the analysis' reasons and verdicts (reasons.go, verdictline.go,
// statistics.go, style.go, console.go), the bisect summary (bisect*.go),
// parsing a record back (parse*.go, runsbytes.go), the data folder's
// hashes and paths (path.go, places.go) and the plots' labels. It renders
// and parses only: the verdict is the analysis package's, and the record
// is re-rendered byte for byte by check.
package recorder
