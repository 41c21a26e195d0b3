//go:build !linux && !darwin

package engine

import "os"

// fileStamp: elsewhere the change time is not read, and the file-hash
// cache hashes every file again.
func fileStamp(os.FileInfo) (stamp, bool) { return stamp{}, false }
