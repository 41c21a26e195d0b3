package recorder

import (
	"fmt"
	"unicode/utf8"
)

// maxErrText bounds the text a record's decoding error quotes of it: the
// JSON decoder's message holds a value whole ("cannot unmarshal number
// 1000…"), and a record of 60 MB whose one number was that long put 60 MB
// into the index's README and a CI log.
const maxErrText = 512

// clipped is an error whose text is cut to maxErrText; it wraps the
// decoder's error, which errors.As still reaches.
type clipped struct{ err error }

func (c clipped) Error() string {
	s := c.err.Error()
	if len(s) <= maxErrText {
		return s
	}
	cut := maxErrText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes cut)", s[:cut], len(s)-cut)
}

func (c clipped) Unwrap() error { return c.err }

// clip cuts a decoding error's text to maxErrText (nil stays nil).
func clip(err error) error {
	if err == nil {
		return nil
	}
	return clipped{err}
}
