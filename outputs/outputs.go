package outputs

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Output is one run's generated output.
type Output struct {
	Text      string
	Reasoning string // text the engine put in a separate reasoning channel, if any
	// Tokens are the generated token ids when the engine returned them
	// completely, nil otherwise. A non-nil empty slice means the engine
	// reported zero tokens, and is compared.
	Tokens []int
}

// Divergence describes how two outputs, A and B, differ.
type Divergence struct {
	// Identical is true when Text, Reasoning and, where compared, Tokens are
	// all equal.
	Identical bool `json:"identical"`

	// ByteOffset is the first differing byte of Text, or the length of the
	// shorter text when one is a prefix of the other; -1 when the texts are
	// equal (also when Identical is false because Tokens or Reasoning
	// differ).
	ByteOffset int `json:"byte_offset"`
	// TokenIndex is the first differing token index, or the length of the
	// shorter sequence when one is a prefix of the other; -1 when the tokens
	// are equal or were not compared.
	TokenIndex int `json:"token_index"`
	// TokenA and TokenB are the token ids at TokenIndex; -1 past the end of a
	// sequence, and both -1 when TokenIndex is -1.
	TokenA int `json:"token_a"`
	TokenB int `json:"token_b"`
	// TokensCompared is true when both outputs carried Tokens.
	TokensCompared bool `json:"tokens_compared"`

	// DifferingBytes is the number of byte positions of Text that differ
	// over the common length, plus the difference in length.
	DifferingBytes int `json:"differing_bytes"`
	// DifferingTokens is the same for Tokens; 0 when not compared.
	DifferingTokens int `json:"differing_tokens"`

	LenA int `json:"len_a"` // bytes of Text
	LenB int `json:"len_b"`
	// TokenCountA and TokenCountB are len(Tokens); 0 for nil.
	TokenCountA int `json:"token_count_a"`
	TokenCountB int `json:"token_count_b"`

	// ExcerptA and ExcerptB show Text around ByteOffset, escaped and with the
	// marker "⟦" where the outputs start to differ (see the package
	// documentation); "" when the texts are equal.
	ExcerptA string `json:"excerpt_a,omitempty"`
	ExcerptB string `json:"excerpt_b,omitempty"`

	// ReasoningByteOffset is ByteOffset for the Reasoning channel; -1 when
	// the reasoning texts are equal (including both empty).
	ReasoningByteOffset int `json:"reasoning_byte_offset"`
	ReasoningLenA       int `json:"reasoning_len_a"`
	ReasoningLenB       int `json:"reasoning_len_b"`
	// ReasoningExcerptA and ReasoningExcerptB are ExcerptA and ExcerptB for
	// the Reasoning channel; "" when the reasoning texts are equal.
	ReasoningExcerptA string `json:"reasoning_excerpt_a,omitempty"`
	ReasoningExcerptB string `json:"reasoning_excerpt_b,omitempty"`
}

// excerptContext is about how many bytes of context an excerpt shows on each
// side of the divergence.
const excerptContext = 40

const (
	marker   = "⟦"
	ellipsis = "…"
)

// Compare compares two outputs mechanically. Text and Reasoning are always
// compared, byte by byte; Tokens are compared when both are non-nil.
//
// Compare does not judge whether the outputs are worth comparing: two empty
// outputs are identical. Ask Empty of each output first.
func Compare(a, b Output) Divergence {
	d := Divergence{
		ByteOffset:          -1,
		TokenIndex:          -1,
		TokenA:              -1,
		TokenB:              -1,
		ReasoningByteOffset: -1,
		LenA:                len(a.Text),
		LenB:                len(b.Text),
		TokenCountA:         len(a.Tokens),
		TokenCountB:         len(b.Tokens),
		ReasoningLenA:       len(a.Reasoning),
		ReasoningLenB:       len(b.Reasoning),
	}

	d.ByteOffset, d.DifferingBytes = diffBytes(a.Text, b.Text)
	if d.ByteOffset >= 0 {
		d.ExcerptA, d.ExcerptB = excerpts(a.Text, b.Text, d.ByteOffset)
	}

	d.ReasoningByteOffset, _ = diffBytes(a.Reasoning, b.Reasoning)
	if d.ReasoningByteOffset >= 0 {
		d.ReasoningExcerptA, d.ReasoningExcerptB = excerpts(a.Reasoning, b.Reasoning, d.ReasoningByteOffset)
	}

	if a.Tokens != nil && b.Tokens != nil {
		d.TokensCompared = true
		d.TokenIndex, d.DifferingTokens = diffTokens(a.Tokens, b.Tokens)
		if d.TokenIndex >= 0 {
			d.TokenA, d.TokenB = tokenAt(a.Tokens, d.TokenIndex), tokenAt(b.Tokens, d.TokenIndex)
		}
	}

	d.Identical = d.ByteOffset < 0 && d.ReasoningByteOffset < 0 && d.TokenIndex < 0
	return d
}

// diffBytes returns the first differing byte (the shorter length when one is
// a prefix of the other; -1 when equal) and the number of differing bytes.
func diffBytes(a, b string) (first, differing int) { return diff([]byte(a), []byte(b)) }

// diffTokens is diffBytes for token sequences.
func diffTokens(a, b []int) (first, differing int) { return diff(a, b) }

// diff returns the first index at which a and b differ (the shorter length
// when one is a prefix of the other; -1 when equal) and how many positions
// differ, counting the length difference.
func diff[T comparable](a, b []T) (first, differing int) {
	first = -1
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			if first < 0 {
				first = i
			}
			differing++
		}
	}
	if len(a) != len(b) {
		if first < 0 {
			first = n
		}
		differing += max(len(a), len(b)) - n
	}
	return first, differing
}

func tokenAt(t []int, i int) int {
	if i < len(t) {
		return t[i]
	}
	return -1
}

// excerpts renders the context of a divergence at byte off of a and b, where
// a[:off] == b[:off].
//
// Character boundaries are those of decoding from the start of the text, one
// rune at a time, with every byte that is not part of valid UTF-8 a unit of
// its own. Below the divergence they are the same in both texts: a rune that
// ends at or before off decodes the same from the common bytes. The marker
// goes at off, or at the start of the character that straddles off in either
// text.
func excerpts(a, b string, off int) (string, string) {
	mark := off
	for i := 0; i < off; {
		_, na := utf8.DecodeRuneInString(a[i:])
		_, nb := utf8.DecodeRuneInString(b[i:])
		if i+na > off || i+nb > off {
			mark = i
			break
		}
		i += na // == nb: the whole rune lies in the common prefix
	}
	start := 0
	for start < mark-excerptContext {
		_, n := utf8.DecodeRuneInString(a[start:])
		start += n
	}
	return excerpt(a, start, mark), excerpt(b, start, mark)
}

// excerpt renders t[start:mark] ⟦ t[mark:end], with end the last character
// boundary at most excerptContext bytes past mark.
func excerpt(t string, start, mark int) string {
	end := mark
	for end < len(t) {
		_, n := utf8.DecodeRuneInString(t[end:])
		if end+n-mark > excerptContext {
			break
		}
		end += n
	}
	var sb strings.Builder
	if start > 0 {
		sb.WriteString(ellipsis)
	}
	escapeTo(&sb, t[start:mark])
	sb.WriteString(marker)
	escapeTo(&sb, t[mark:end])
	if end < len(t) {
		sb.WriteString(ellipsis)
	}
	return sb.String()
}

// escapeTo writes s as an excerpt shows it: valid UTF-8 on one line, with
// invalid bytes as \xNN, non-printing characters as strconv.Quote escapes
// them, a backslash as \\, and "⟦", "…" and U+FFFD as \u27e6, \u2026 and
// \ufffd. '"' is not escaped. strconv.Unquote of the result, with each '"'
// preceded by a backslash and the whole in double quotes, gives s back.
func escapeTo(sb *strings.Builder, s string) {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(sb, `\x%02x`, s[i])
		case r == '\\':
			sb.WriteString(`\\`)
		case r == utf8.RuneError, r == '⟦', r == '…':
			fmt.Fprintf(sb, `\u%04x`, r)
		case strconv.IsPrint(r):
			sb.WriteString(s[i : i+n])
		default:
			q := strconv.QuoteRune(r) // '\n', '\x00', '\u200b'
			sb.WriteString(q[1 : len(q)-1])
		}
		i += n
	}
}

// Empty reports why an output cannot be compared: "" when it can.
//
// An output is not comparable when its Text is empty or only whitespace:
// "empty output", "whitespace-only output (N bytes)", or, when the
// reasoning channel holds the real text, "all text went to the reasoning
// channel (N bytes)".
func Empty(o Output) string {
	if strings.TrimSpace(o.Text) != "" {
		return ""
	}
	if strings.TrimSpace(o.Reasoning) != "" {
		if o.Text == "" {
			return fmt.Sprintf("all text went to the reasoning channel (%d bytes)", len(o.Reasoning))
		}
		return fmt.Sprintf("all text went to the reasoning channel (%d bytes; only %d bytes of whitespace outside it)",
			len(o.Reasoning), len(o.Text))
	}
	if o.Text == "" {
		if len(o.Tokens) > 0 {
			return fmt.Sprintf("empty output (%d tokens produced no text)", len(o.Tokens))
		}
		return "empty output"
	}
	return fmt.Sprintf("whitespace-only output (%d bytes)", len(o.Text))
}

// Agreement is the self-agreement of a baseline's runs.
type Agreement struct {
	// Agree is true only when there are at least two runs, none of them is
	// Empty, and every run is identical to the first.
	Agree bool `json:"agree"`
	Runs  int  `json:"runs"`
	// First is the first disagreement (run RunB against run RunA); when no
	// run disagrees it is the comparison of the first run with the last.
	First Divergence `json:"first"`
	// RunA and RunB index the first disagreeing pair; -1 when none.
	RunA int `json:"run_a"`
	RunB int `json:"run_b"`
	// Disagreeing counts the runs that differ from the first.
	Disagreeing int `json:"disagreeing"`
	// Uncomparable says why the runs cannot establish agreement even where
	// they are identical: too few runs, or the first run that is Empty.
	Uncomparable string `json:"uncomparable,omitempty"`
}

// SelfAgreement compares every run with the first and reports the first
// disagreement.
func SelfAgreement(outs []Output) Agreement {
	ag := Agreement{Runs: len(outs), RunA: -1, RunB: -1}
	switch len(outs) {
	case 0:
		ag.Uncomparable = "no runs"
		ag.First = Divergence{ByteOffset: -1, TokenIndex: -1, TokenA: -1, TokenB: -1, ReasoningByteOffset: -1}
		return ag
	case 1:
		ag.Uncomparable = "only one run; self-agreement needs two or more"
	}
	for i, o := range outs {
		if why := Empty(o); why != "" {
			ag.Uncomparable = fmt.Sprintf("run %d: %s", i, why)
			break
		}
	}
	ag.First = Compare(outs[0], outs[len(outs)-1])
	for i := 1; i < len(outs); i++ {
		d := Compare(outs[0], outs[i])
		if d.Identical {
			continue
		}
		if ag.Disagreeing == 0 {
			ag.First, ag.RunA, ag.RunB = d, 0, i
		}
		ag.Disagreeing++
	}
	ag.Agree = ag.Disagreeing == 0 && ag.Uncomparable == ""
	return ag
}
