// Package review holds what a reviewer runs on records: check (is this
// record what it claims, and does it follow from its raw runs?), diff
// (what moved between two records, and were they comparable?), index
// (every record of a folder at a glance) and identity (do stored outputs
// agree?). Nothing here executes anything a record or its data folder
// contains.
package review
