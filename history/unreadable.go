package history

import (
	"path/filepath"
	"slices"
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
// feature names these rather than pass them over without a word. A name
// that is as much a record of a longer feature the folder's readable
// records hold (recs: spec-draft-… is not spec's) is that feature's.
func UnreadableOf(bad []error, feature string, recs []Record) []*Unreadable {
	var longer []string
	for _, r := range recs {
		if f := r.Rec.Feature; strings.HasPrefix(f, feature+"-") {
			longer = append(longer, f+"-")
		}
	}
	var out []*Unreadable
	for _, e := range bad {
		u, ok := e.(*Unreadable)
		if !ok {
			continue
		}
		name := filepath.Base(u.Path)
		if strings.HasPrefix(name, feature+"-") && !slices.ContainsFunc(longer, func(p string) bool { return strings.HasPrefix(name, p) }) {
			out = append(out, u)
		}
	}
	return out
}
