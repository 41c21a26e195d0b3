package main

import "strings"

// isRecordPath reports whether a path names a record (Markdown) rather than
// a runs.jsonl file.
func isRecordPath(p string) bool { return strings.HasSuffix(p, ".md") }
