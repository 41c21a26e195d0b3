// Package abbrev shortens strings for one line of display.
package abbrev

import "strings"

// FirstLine returns s up to its first newline.
func FirstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// Hash returns the first 12 characters of a hash, as records show it.
func Hash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
