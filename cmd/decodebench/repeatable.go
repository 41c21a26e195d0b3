package main

import "strings"

// repeatable is a flag that may be given several times, each value kept
// whole (cli.StringSliceFlag would split --set k='{"a": 1, "b": 2}' at
// its commas).
type repeatable []string

func (r *repeatable) Set(v string) error { *r = append(*r, v); return nil }
func (r *repeatable) String() string     { return strings.Join(*r, " ") }
