package outputs

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// unescape inverts escapeTo.
func unescape(t *testing.T, s string) string {
	t.Helper()
	u, err := strconv.Unquote(`"` + strings.ReplaceAll(s, `"`, `\"`) + `"`)
	if err != nil {
		t.Fatalf("excerpt part %q does not unescape: %v", s, err)
	}
	return u
}

// parseExcerpt splits an excerpt into its cut marks and its unescaped text
// before and after the marker.
func parseExcerpt(t *testing.T, e string) (cutStart bool, before, after string, cutEnd bool) {
	t.Helper()
	if !utf8.ValidString(e) {
		t.Fatalf("excerpt %q is not valid UTF-8", e)
	}
	if strings.ContainsRune(e, utf8.RuneError) {
		t.Fatalf("excerpt %q contains U+FFFD", e)
	}
	if strings.ContainsAny(e, "\n\r") {
		t.Fatalf("excerpt %q is not one line", e)
	}
	e, cutStart = strings.CutPrefix(e, ellipsis)
	e, cutEnd = strings.CutSuffix(e, ellipsis)
	if strings.Contains(e, ellipsis) {
		t.Fatalf("excerpt %q has an unescaped %s inside", e, ellipsis)
	}
	b, a, ok := strings.Cut(e, marker)
	if !ok || strings.Contains(a, marker) {
		t.Fatalf("excerpt %q does not have exactly one marker", e)
	}
	return cutStart, unescape(t, b), unescape(t, a), cutEnd
}

// boundaries marks the character boundaries of s, decoding from its start
// with every invalid byte a character of its own.
func boundaries(s string) []bool {
	b := make([]bool, len(s)+1)
	for _, i := range runeStarts(s) {
		b[i] = true
	}
	b[len(s)] = true
	return b
}

func runeStarts(s string) []int {
	var starts []int
	for i := range s { // range yields each rune start; an invalid byte is one rune
		starts = append(starts, i)
	}
	return starts
}

// checkExcerpts checks the excerpts of texts a and b that differ first at
// byte off.
func checkExcerpts(t *testing.T, a, b string, off int, ea, eb string) {
	t.Helper()
	if off < 0 {
		if ea != "" || eb != "" {
			t.Fatalf("equal texts with excerpts %q, %q", ea, eb)
		}
		return
	}
	csA, beforeA, afterA, ceA := parseExcerpt(t, ea)
	csB, beforeB, afterB, ceB := parseExcerpt(t, eb)
	if beforeA != beforeB || csA != csB {
		t.Fatalf("excerpts differ before the marker: %q vs %q", ea, eb)
	}
	// The marker is at the last character boundary at or before off that
	// both texts share, decoding each from its start; that is off, or the
	// start of a character straddling off, at most three bytes before it.
	mark := 0
	ba, bb := boundaries(a), boundaries(b)
	for q := 0; q <= off; q++ {
		if ba[q] && bb[q] {
			mark = q
		}
	}
	if mark < off-(utf8.UTFMax-1) || !strings.HasSuffix(a[:mark], beforeA) || !strings.HasPrefix(a[mark:], afterA) || !strings.HasPrefix(b[mark:], afterB) {
		t.Fatalf("excerpts %q, %q are not the texts around byte %d (marker %d) of %q, %q", ea, eb, off, mark, a, b)
	}
	for _, x := range []struct {
		text          string
		after         string
		cutStart, end bool
	}{{a, afterA, csA, ceA}, {b, afterB, csB, ceB}} {
		start, end := mark-len(beforeA), mark+len(x.after)
		if x.cutStart != (start > 0) || x.end != (end < len(x.text)) {
			t.Fatalf("excerpt cut marks wrong for %q around %d: start %d end %d", x.text, mark, start, end)
		}
		if len(beforeA) > excerptContext || len(x.after) > excerptContext {
			t.Fatalf("excerpt context too long: %q / %q", beforeA, x.after)
		}
		if start > 0 && len(beforeA) < excerptContext-(utf8.UTFMax-1) ||
			end < len(x.text) && len(x.after) < excerptContext-(utf8.UTFMax-1) {
			t.Fatalf("excerpt context too short: %q / %q", beforeA, x.after)
		}
	}
}

func FuzzCompare(f *testing.F) {
	f.Add("", "hello", "hello", "", "", []byte(nil), []byte(nil), uint8(0))
	f.Add("The answer is ", "42.", "41.", "", "", []byte{1, 2, 3}, []byte{1, 2, 4}, uint8(3))
	f.Add("caf", "\xc3\xa9", "\xc3\xa8", "", "", []byte("caf\xc3\xa9"), []byte("caf\xc3\xa8"), uint8(3))
	f.Add("hi ", "\U0001F600", "\U0001F601", "", "", []byte(nil), []byte(nil), uint8(0))
	f.Add("a", "\xff\xfe", "\xfe", "", "", []byte(nil), []byte(nil), uint8(0))
	f.Add(strings.Repeat("漢", 20), "x\n", "y\t", "think", "thonk", []byte{9}, []byte{}, uint8(3))
	f.Add("", "draft model loaded: x.gguf\nHi", "Hi", "", "", []byte{7}, []byte{7}, uint8(3))
	f.Add("⟦…\\\"", "\ufffd", "\u00a0", "", "", []byte(nil), []byte(nil), uint8(1))
	f.Fuzz(func(t *testing.T, shared, textA, textB, reasonA, reasonB string, tokA, tokB []byte, flags uint8) {
		toks := func(b []byte, on bool) []int {
			if !on {
				return nil
			}
			t := make([]int, len(b))
			for i, x := range b {
				t[i] = int(x)
			}
			return t
		}
		a := Output{Text: shared + textA, Reasoning: reasonA, Tokens: toks(tokA, flags&1 != 0)}
		b := Output{Text: shared + textB, Reasoning: reasonB, Tokens: toks(tokB, flags&2 != 0)}

		for _, o := range []Output{a, b} {
			if d := Compare(o, o); !d.Identical || d.ByteOffset != -1 || d.TokenIndex != -1 || d.ReasoningByteOffset != -1 ||
				d.DifferingBytes != 0 || d.DifferingTokens != 0 || d.ExcerptA != "" || d.ExcerptB != "" {
				t.Fatalf("Compare(x, x) = %#v", d)
			}
			var e strings.Builder
			if escapeTo(&e, o.Text); unescape(t, e.String()) != o.Text {
				t.Fatalf("escapeTo(%q) = %q does not round-trip", o.Text, e.String())
			}
		}

		d, r := Compare(a, b), Compare(b, a)
		if d.ByteOffset != r.ByteOffset || d.TokenIndex != r.TokenIndex || d.ReasoningByteOffset != r.ReasoningByteOffset ||
			d.Identical != r.Identical || d.DifferingBytes != r.DifferingBytes || d.DifferingTokens != r.DifferingTokens ||
			d.TokenA != r.TokenB || d.TokenB != r.TokenA || d.ExcerptA != r.ExcerptB || d.ExcerptB != r.ExcerptA {
			t.Fatalf("Compare not symmetric:\n%#v\n%#v", d, r)
		}

		tokensEqual := a.Tokens == nil || b.Tokens == nil || slices.Equal(a.Tokens, b.Tokens)
		if want := a.Text == b.Text && a.Reasoning == b.Reasoning && tokensEqual; d.Identical != want {
			t.Fatalf("Identical = %v, want %v: %#v", d.Identical, want, d)
		}
		if d.TokensCompared != (a.Tokens != nil && b.Tokens != nil) {
			t.Fatalf("TokensCompared = %v", d.TokensCompared)
		}

		n := min(len(a.Text), len(b.Text))
		if a.Text == b.Text {
			if d.ByteOffset != -1 || d.DifferingBytes != 0 {
				t.Fatalf("equal texts: %#v", d)
			}
		} else {
			off := d.ByteOffset
			if off < 0 || off > n || a.Text[:off] != b.Text[:off] || off < n && a.Text[off] == b.Text[off] {
				t.Fatalf("ByteOffset %d wrong for %q vs %q", off, a.Text, b.Text)
			}
			if d.DifferingBytes < 1 || d.DifferingBytes > max(len(a.Text), len(b.Text)) {
				t.Fatalf("DifferingBytes %d", d.DifferingBytes)
			}
		}
		if d.ByteOffset > n {
			t.Fatalf("ByteOffset %d > min length %d", d.ByteOffset, n)
		}
		checkExcerpts(t, a.Text, b.Text, d.ByteOffset, d.ExcerptA, d.ExcerptB)
		checkExcerpts(t, a.Reasoning, b.Reasoning, d.ReasoningByteOffset, d.ReasoningExcerptA, d.ReasoningExcerptB)

		if d.TokenIndex >= 0 {
			i := d.TokenIndex
			if !d.TokensCompared || i > min(len(a.Tokens), len(b.Tokens)) ||
				!slices.Equal(a.Tokens[:i], b.Tokens[:i]) || d.TokenA != tokenAt(a.Tokens, i) || d.TokenB != tokenAt(b.Tokens, i) ||
				d.TokenA == d.TokenB || d.DifferingTokens < 1 {
				t.Fatalf("token fields wrong: %#v", d)
			}
		} else if d.TokenA != -1 || d.TokenB != -1 || d.DifferingTokens != 0 {
			t.Fatalf("token fields set without TokenIndex: %#v", d)
		}
	})
}
