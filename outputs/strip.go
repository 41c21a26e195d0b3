package outputs

import (
	"math/bits"
	"regexp"
	"strings"
)

// Stripper is a list of strip patterns, each compiled once in multi-line
// mode (see Strip), to be applied to many texts.
type Stripper struct{ patterns []*regexp.Regexp }

// NewStripper compiles each pattern once in multi-line mode, as if
// wrapped in (?m:…), for Strip; nil patterns are left out.
func NewStripper(patterns []*regexp.Regexp) *Stripper {
	s := &Stripper{}
	for _, re := range patterns {
		if re == nil {
			continue
		}
		if ml, err := regexp.Compile("(?m:" + re.String() + ")"); err == nil {
			re = ml
		}
		s.patterns = append(s.patterns, re)
	}
	return s
}

// Strip removes every match of the patterns from text and reports how
// many spans it removed and the first keep of them, in order of position
// in text, so that the record can count them and show a few. It compiles
// the patterns for this one text: a caller stripping many texts compiles
// them once with NewStripper.
//
// Each pattern is applied in multi-line mode, as if wrapped in (?m:…), so
// that ^ and $ match at line boundaries; a pattern can opt out with (?-m).
// A pattern removes only what it matches: to remove a whole line, match its
// newline too ("^draft model loaded: .*\n"). All patterns are matched against
// the original text; overlapping matches are removed once, as one span, and
// counted once. Empty matches and nil patterns are ignored. Patterns compiled
// with CompilePOSIX lose leftmost-longest matching.
//
// No match is held beyond the first keep: what is removed is marked in two
// bitmaps of the text's bytes (an eighth of its length each), so a text of
// a million one-byte matches costs a quarter of its length, not a slice per
// match.
func Strip(text string, patterns []*regexp.Regexp, keep int) (out string, removed int, first []string) {
	return NewStripper(patterns).Strip(text, keep)
}

// Strip is Strip with the stripper's patterns.
func (s *Stripper) Strip(text string, keep int) (out string, removed int, first []string) {
	if s == nil {
		return text, 0, nil
	}
	var src []byte
	var cut cutSet
	for _, re := range s.patterns {
		if !re.MatchString(text) {
			continue
		}
		if src == nil {
			src = []byte(text)
		}
		eachMatch(re, src, func(lo, hi int) { cut.add(len(text), lo, hi) })
	}
	if cut.in == nil {
		return text, 0, nil
	}
	var b strings.Builder
	at := 0
	for lo := cut.next(at, len(text)); lo < len(text); lo = cut.next(at, len(text)) {
		hi := lo + 1
		for hi < len(text) && bitSet(cut.joined, hi) {
			hi++
		}
		b.WriteString(text[at:lo])
		if removed++; len(first) < keep {
			first = append(first, text[lo:hi])
		}
		at = hi
	}
	b.WriteString(text[at:])
	return b.String(), removed, first
}

// eachMatch calls fn with the bounds of every non-empty match of re in
// src, in order, as FindAllIndex finds them but without holding them all
// (a slice per match): ReplaceAllFunc hands each match to its function as
// src[lo:hi], whose offset in src its capacity tells. Should a match ever
// come as a copy instead (its first byte is not src[lo]), the matches are
// taken from FindAllIndex.
func eachMatch(re *regexp.Regexp, src []byte, fn func(lo, hi int)) {
	sliced := true
	re.ReplaceAllFunc(src, func(m []byte) []byte {
		if len(m) == 0 || !sliced {
			return nil
		}
		lo := cap(src) - cap(m)
		if lo < 0 || lo+len(m) > len(src) || &src[lo] != &m[0] {
			sliced = false
			return nil
		}
		fn(lo, lo+len(m))
		return nil
	})
	if sliced {
		return
	}
	for _, m := range re.FindAllIndex(src, -1) {
		if m[1] > m[0] {
			fn(m[0], m[1])
		}
	}
}

// cutSet is what Strip removes from a text of n bytes: in has byte i's
// bit set when a match covers it, joined when one match covers both byte
// i-1 and byte i. A removed span starts at a byte in it whose joined bit
// is clear and runs while joined is set: matches that overlap make one
// span, matches that only touch stay two.
type cutSet struct{ in, joined []uint64 }

func (c *cutSet) add(n, lo, hi int) {
	if c.in == nil {
		c.in, c.joined = make([]uint64, (n+63)/64), make([]uint64, (n+63)/64)
	}
	setBits(c.in, lo, hi)
	setBits(c.joined, lo+1, hi)
}

// next is the first removed byte at or after i, or n when none is.
func (c *cutSet) next(i, n int) int {
	for i < n {
		if w := c.in[i/64] >> (i % 64); w != 0 {
			return min(i+bits.TrailingZeros64(w), n)
		}
		i = (i/64 + 1) * 64
	}
	return n
}

// setBits sets bits lo to hi-1 of b.
func setBits(b []uint64, lo, hi int) {
	for lo < hi {
		o := lo % 64
		n := min(64-o, hi-lo)
		mask := ^uint64(0)
		if n < 64 {
			mask = (uint64(1)<<n - 1) << o
		}
		b[lo/64] |= mask
		lo += n
	}
}

func bitSet(b []uint64, i int) bool { return b[i/64]>>(i%64)&1 != 0 }
