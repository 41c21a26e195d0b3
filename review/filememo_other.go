//go:build !linux

package review

import "io/fs"

// statOf: elsewhere than Linux every data file is read and hashed.
func statOf(fs.FileInfo) (fileStat, bool) { return fileStat{}, false }
