package engine

import (
	"bytes"
	"strconv"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// A streamed event is read in place, never decoded into a map: once
// encoding/json has said it is valid JSON (json.Valid, which allocates
// nothing), the dialect walks it for the few fields it wants and the
// reply keeps its top-level fields' bytes. Every value read so is the
// value encoding/json would decode (FuzzEventJSON compares them), and a
// token costs no allocation beyond what the reply keeps of it.

// jsonValue is the bytes of one JSON value, from a valid document, with
// no space around it; the zero jsonValue is absent.
type jsonValue []byte

// isString and isObject say what the value is.
func (v jsonValue) isString() bool { return len(v) > 0 && v[0] == '"' }
func (v jsonValue) isObject() bool { return len(v) > 0 && v[0] == '{' }

// members yields the key (still quoted) and the value of each member of
// an object, in order; nothing for a value that is not an object.
func (v jsonValue) members(yield func(key, val jsonValue) bool) {
	if !v.isObject() {
		return
	}
	for i := skipSpace(v, 1); i < len(v) && v[i] != '}'; {
		ke := stringEnd(v, i)
		vs := skipSpace(v, skipSpace(v, ke)+1) // past the colon
		ve := valueEnd(v, vs)
		if !yield(v[i:ke], v[vs:ve]) {
			return
		}
		i = skipSpace(v, ve)
		if i < len(v) && v[i] == ',' {
			i = skipSpace(v, i+1)
		}
	}
}

// elements yields each element of an array, in order; nothing for a
// value that is not an array.
func (v jsonValue) elements(yield func(el jsonValue) bool) {
	if len(v) == 0 || v[0] != '[' {
		return
	}
	for i := skipSpace(v, 1); i < len(v) && v[i] != ']'; {
		e := valueEnd(v, i)
		if !yield(v[i:e]) {
			return
		}
		i = skipSpace(v, e)
		if i < len(v) && v[i] == ',' {
			i = skipSpace(v, i+1)
		}
	}
}

// is reports whether a quoted key (or string) is name, as decoded.
func (v jsonValue) is(name string) bool {
	if len(v) < 2 || v[0] != '"' {
		return false
	}
	if bytes.IndexByte(v, '\\') < 0 {
		return string(v[1:len(v)-1]) == name
	}
	var buf [64]byte
	return string(v.appendString(buf[:0])) == name
}

// number is the value as encoding/json decodes a number into an any;
// ok is false for any other value.
func (v jsonValue) number() (f float64, ok bool) {
	if len(v) == 0 || (v[0] != '-' && (v[0] < '0' || v[0] > '9')) {
		return 0, false
	}
	// Most numbers of a stream are small integers: read without the
	// string strconv would need.
	if len(v) <= 15 {
		neg, digits := v[0] == '-', v
		if neg {
			digits = v[1:]
		}
		n, plain := int64(0), len(digits) > 0
		for _, c := range digits {
			if c < '0' || c > '9' {
				plain = false
				break
			}
			n = n*10 + int64(c-'0')
		}
		if plain {
			if neg {
				return -float64(n), true
			}
			return float64(n), true
		}
	}
	f, err := strconv.ParseFloat(string(v), 64)
	return f, err == nil
}

// appendString appends the text of a string value, as encoding/json
// decodes it: escapes resolved, a lone surrogate or an invalid byte as
// U+FFFD.
func (v jsonValue) appendString(dst []byte) []byte {
	s := v[1 : len(v)-1]
	if bytes.IndexByte(s, '\\') < 0 && utf8.Valid(s) {
		return append(dst, s...)
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' && s[i+1] == 'u':
			r := hex4(s[i+2:])
			i += 6
			if utf16.IsSurrogate(r) {
				if i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
					if d := utf16.DecodeRune(r, hex4(s[i+2:])); d != unicode.ReplacementChar {
						dst = utf8.AppendRune(dst, d)
						i += 6
						continue
					}
				}
				r = unicode.ReplacementChar
			}
			dst = utf8.AppendRune(dst, r)
		case c == '\\':
			dst = append(dst, unescaped(s[i+1]))
			i += 2
		case c < utf8.RuneSelf:
			dst = append(dst, c)
			i++
		default:
			r, n := utf8.DecodeRune(s[i:])
			dst = utf8.AppendRune(dst, r)
			i += n
		}
	}
	return dst
}

// unescaped is the byte a one-character escape stands for.
func unescaped(c byte) byte {
	switch c {
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	}
	return c // '"', '\\', '/'
}

// hex4 reads the four hex digits of a \u escape.
func hex4(s []byte) rune {
	var r rune
	for _, c := range s[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		default:
			c = c - 'A' + 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

// plainNumbers reports whether no number in a valid document has an
// exponent or more than 300 digits: only such a number can be out of a
// float64's range, which encoding/json refuses as an error.
func plainNumbers(v []byte) bool {
	digits := 0
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '"':
			i = stringEnd(v, i) - 1
			digits = 0
		case c >= '0' && c <= '9':
			if digits++; digits > 300 {
				return false
			}
		case c == 'E' || (c == 'e' && digits > 0):
			return false
		case c != '.':
			digits = 0
		}
	}
	return true
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// stringEnd is the index just past the string that starts at b[i].
func stringEnd(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b)
}

// valueEnd is the index just past the value that starts at b[i].
func valueEnd(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				i = stringEnd(b, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return len(b)
	}
	for ; i < len(b); i++ {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return i
		}
	}
	return i
}
