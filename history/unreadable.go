package history

import (
	"path/filepath"
	"strings"
)

// Unreadable is a file of a records folder that could not be read as a
// record: its data block does not parse, or its name is not its record's.
type Unreadable struct {
	Path string
	Err  error
}

func (u *Unreadable) Error() string { return u.Err.Error() }
func (u *Unreadable) Unwrap() error { return u.Err }

// Why is the error without the file's path, where it begins with it.
func (u *Unreadable) Why() string {
	return strings.TrimPrefix(u.Err.Error(), u.Path+": ")
}

// UnreadableOf are the files of bad (a folder's unreadable records) named
// as feature's records, <feature>-<hardware>-<date>.md: nothing else says
// which feature a file that cannot be read holds, and a command about one
// feature names these rather than pass them over without a word.
func UnreadableOf(bad []error, feature string) []*Unreadable {
	var out []*Unreadable
	for _, e := range bad {
		if u, ok := e.(*Unreadable); ok && strings.HasPrefix(filepath.Base(u.Path), feature+"-") {
			out = append(out, u)
		}
	}
	return out
}
