//go:build unix && !linux

package anonfile

import "os"

// New is an anonymous file, here a temporary file unlinked at once.
func New(name string) (*os.File, error) { return tempAnonymous(name) }
