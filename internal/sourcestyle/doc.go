// Package sourcestyle holds the tests that keep the source readable: no
// file of code over 400 lines, and no format string or quoted string over
// 200 characters (prose is short sentences joined; long help text is a raw
// string of the CLI). It has no code of its own.
package sourcestyle
