//go:build unix && !linux

package machine

import "os"

// AnonymousFile is a file without a name that anyone could open, appended
// to by every writer, gone once the last process holding it closes it:
// here a temporary file unlinked at once.
func AnonymousFile(name string) (*os.File, error) { return tempAnonymous(name) }
