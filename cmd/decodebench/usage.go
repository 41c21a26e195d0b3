package main

import "strings"

// exitUsage is the exit status of a command line decodebench cannot use
// (EX_USAGE), distinct from every verdict's code.
const exitUsage = 64

func usageError(msg string) error { return &exitError{code: exitUsage, msg: msg} }

// isRecordPath reports whether a path names a record (Markdown) rather than
// a runs.jsonl file.
func isRecordPath(p string) bool { return strings.HasSuffix(p, ".md") }
