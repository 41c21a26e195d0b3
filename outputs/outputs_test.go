package outputs

import (
	"math/rand/v2"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// bytesAsTokens spells a text as one token per byte, as a byte-level model
// (or a byte-fallback tokenizer) may produce it.
func bytesAsTokens(s string) []int {
	t := make([]int, len(s))
	for i := range len(s) {
		t[i] = int(s[i])
	}
	return t
}

func TestCompare(t *testing.T) {
	long := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 4) // 180 bytes
	tests := []struct {
		name string
		a, b Output
		want Divergence // the fields checked; see check below
	}{
		{
			name: "identical text, no tokens",
			a:    Output{Text: "hello"},
			b:    Output{Text: "hello"},
			want: Divergence{Identical: true, ByteOffset: -1, TokenIndex: -1, TokenA: -1, TokenB: -1, ReasoningByteOffset: -1, LenA: 5, LenB: 5},
		},
		{
			name: "identical text and tokens",
			a:    Output{Text: "hello", Tokens: []int{15339, 1917}},
			b:    Output{Text: "hello", Tokens: []int{15339, 1917}},
			want: Divergence{Identical: true, ByteOffset: -1, TokenIndex: -1, TokenA: -1, TokenB: -1, ReasoningByteOffset: -1, TokensCompared: true, LenA: 5, LenB: 5, TokenCountA: 2, TokenCountB: 2},
		},
		{
			name: "tokens on one side only are not compared",
			a:    Output{Text: "hello", Tokens: []int{1, 2}},
			b:    Output{Text: "hello"},
			want: Divergence{Identical: true, ByteOffset: -1, TokenIndex: -1, TokenA: -1, TokenB: -1, ReasoningByteOffset: -1, LenA: 5, LenB: 5, TokenCountA: 2},
		},
		{
			name: "identical with reasoning",
			a:    Output{Text: "42", Reasoning: "think", Tokens: []int{}},
			b:    Output{Text: "42", Reasoning: "think", Tokens: []int{}},
			want: Divergence{Identical: true, ByteOffset: -1, TokenIndex: -1, TokenA: -1, TokenB: -1, ReasoningByteOffset: -1, TokensCompared: true, LenA: 2, LenB: 2, ReasoningLenA: 5, ReasoningLenB: 5},
		},
		{
			name: "divergence at byte 0",
			a:    Output{Text: "Yes", Tokens: []int{9642}},
			b:    Output{Text: "No", Tokens: []int{2822}},
			want: Divergence{ByteOffset: 0, TokenIndex: 0, TokenA: 9642, TokenB: 2822, TokensCompared: true, ReasoningByteOffset: -1,
				DifferingBytes: 3, DifferingTokens: 1, LenA: 3, LenB: 2, TokenCountA: 1, TokenCountB: 1, ExcerptA: "⟦Yes", ExcerptB: "⟦No"},
		},
		{
			name: "divergence in the middle of a long text",
			a:    Output{Text: long + "The end." + long},
			b:    Output{Text: long + "The END." + long},
			want: Divergence{ByteOffset: 184, TokenIndex: -1, TokenA: -1, TokenB: -1, ReasoningByteOffset: -1, DifferingBytes: 3, LenA: 368, LenB: 368,
				ExcerptA: "… brown fox jumps over the lazy dog. The ⟦end.The quick brown fox jumps over the l…",
				ExcerptB: "… brown fox jumps over the lazy dog. The ⟦END.The quick brown fox jumps over the l…"},
		},
		{
			name: "prefix: B stops early",
			a:    Output{Text: "one two three", Tokens: []int{1, 2, 3}},
			b:    Output{Text: "one two", Tokens: []int{1, 2}},
			want: Divergence{ByteOffset: 7, TokenIndex: 2, TokenA: 3, TokenB: -1, TokensCompared: true, ReasoningByteOffset: -1,
				DifferingBytes: 6, DifferingTokens: 1, LenA: 13, LenB: 7, TokenCountA: 3, TokenCountB: 2, ExcerptA: "one two⟦ three", ExcerptB: "one two⟦"},
		},
		{
			name: "prefix: A stops early",
			a:    Output{Text: "ab"},
			b:    Output{Text: "abc"},
			want: Divergence{ByteOffset: 2, TokenIndex: -1, TokenA: -1, TokenB: -1, ReasoningByteOffset: -1, DifferingBytes: 1, LenA: 2, LenB: 3, ExcerptA: "ab⟦", ExcerptB: "ab⟦c"},
		},
		{
			// "é" is C3 A9, "è" is C3 A8; each spelled as two byte tokens.
			// The first differing byte is the second byte of the character;
			// the marker moves back to its start so both whole characters
			// show.
			name: "divergence inside a 2-byte character split across byte tokens",
			a:    Output{Text: "caf\xc3\xa9!", Tokens: bytesAsTokens("caf\xc3\xa9!")},
			b:    Output{Text: "caf\xc3\xa8!", Tokens: bytesAsTokens("caf\xc3\xa8!")},
			want: Divergence{ByteOffset: 4, TokenIndex: 4, TokenA: 0xA9, TokenB: 0xA8, TokensCompared: true, ReasoningByteOffset: -1,
				DifferingBytes: 1, DifferingTokens: 1, LenA: 6, LenB: 6, TokenCountA: 6, TokenCountB: 6, ExcerptA: "caf⟦é!", ExcerptB: "caf⟦è!"},
		},
		{
			// B stops after the first byte of "é": a dangling lead byte.
			name: "one output stops inside a character",
			a:    Output{Text: "caf\xc3\xa9", Tokens: []int{'c', 'a', 'f', 0xC3, 0xA9}},
			b:    Output{Text: "caf\xc3", Tokens: []int{'c', 'a', 'f', 0xC3}},
			want: Divergence{ByteOffset: 4, TokenIndex: 4, TokenA: 0xA9, TokenB: -1, TokensCompared: true, ReasoningByteOffset: -1,
				DifferingBytes: 1, DifferingTokens: 1, LenA: 5, LenB: 4, TokenCountA: 5, TokenCountB: 4, ExcerptA: "caf⟦é", ExcerptB: `caf⟦\xc3`},
		},
		{
			// The character is valid in A only; in B the lead byte is
			// followed by ASCII. The marker still goes to the start of A's
			// character, the same place in both.
			name: "character valid in one output only",
			a:    Output{Text: "x\xc3\xa9y"},
			b:    Output{Text: "x\xc3Ay"},
			want: Divergence{ByteOffset: 2, TokenIndex: -1, TokenA: -1, TokenB: -1, ReasoningByteOffset: -1, DifferingBytes: 1, LenA: 4, LenB: 4,
				ExcerptA: "x⟦éy", ExcerptB: `x⟦\xc3Ay`},
		},
		{
			// 😀 is F0 9F 98 80, 😁 is F0 9F 98 81: they differ in the
			// fourth byte.
			name: "emoji differing in the last byte",
			a:    Output{Text: "hi \U0001F600", Tokens: bytesAsTokens("hi \U0001F600")},
			b:    Output{Text: "hi \U0001F601", Tokens: bytesAsTokens("hi \U0001F601")},
			want: Divergence{ByteOffset: 6, TokenIndex: 6, TokenA: 0x80, TokenB: 0x81, TokensCompared: true, ReasoningByteOffset: -1,
				DifferingBytes: 1, DifferingTokens: 1, LenA: 7, LenB: 7, TokenCountA: 7, TokenCountB: 7, ExcerptA: "hi ⟦😀", ExcerptB: "hi ⟦😁"},
		},
		{
			name: "invalid UTF-8 bytes are escaped, not replaced",
			a:    Output{Text: "a\xffb\n"},
			b:    Output{Text: "a\xfeb\n"},
			want: Divergence{ByteOffset: 1, TokenIndex: -1, TokenA: -1, TokenB: -1, ReasoningByteOffset: -1, DifferingBytes: 1, LenA: 4, LenB: 4,
				ExcerptA: `a⟦\xffb\n`, ExcerptB: `a⟦\xfeb\n`},
		},
		{
			name: "invisible and reserved characters are escaped",
			a:    Output{Text: "a b\\⟦…\ufffd"},
			b:    Output{Text: "a\u00a0b\\⟦…\ufffd"},
			want: Divergence{ByteOffset: 1, TokenIndex: -1, TokenA: -1, TokenB: -1, ReasoningByteOffset: -1, DifferingBytes: 13, LenA: 13, LenB: 14,
				ExcerptA: `a⟦ b\\\u27e6\u2026\ufffd`, ExcerptB: `a⟦\u00a0b\\\u27e6\u2026\ufffd`},
		},
		{
			// Same tokens, different text: e.g. a detokenizer that differs
			// between arms, or a banner stripped from one side only.
			name: "equal tokens, different text",
			a:    Output{Text: " Hello", Tokens: []int{22691}},
			b:    Output{Text: "Hello", Tokens: []int{22691}},
			want: Divergence{ByteOffset: 0, TokenIndex: -1, TokenA: -1, TokenB: -1, TokensCompared: true, ReasoningByteOffset: -1,
				DifferingBytes: 5, LenA: 6, LenB: 5, TokenCountA: 1, TokenCountB: 1, ExcerptA: "⟦ Hello", ExcerptB: "⟦Hello"},
		},
		{
			name: "equal text, different tokens",
			a:    Output{Text: "ab", Tokens: []int{64, 65}},
			b:    Output{Text: "ab", Tokens: []int{370}},
			want: Divergence{ByteOffset: -1, TokenIndex: 0, TokenA: 64, TokenB: 370, TokensCompared: true, ReasoningByteOffset: -1,
				DifferingTokens: 2, LenA: 2, LenB: 2, TokenCountA: 2, TokenCountB: 1},
		},
		{
			name: "equal text, different reasoning",
			a:    Output{Text: "42", Reasoning: "so 6*7"},
			b:    Output{Text: "42", Reasoning: "so 7*6"},
			want: Divergence{ByteOffset: -1, TokenIndex: -1, TokenA: -1, TokenB: -1, ReasoningByteOffset: 3, LenA: 2, LenB: 2,
				ReasoningLenA: 6, ReasoningLenB: 6, ReasoningExcerptA: "so ⟦6*7", ReasoningExcerptB: "so ⟦7*6"},
		},
		{
			name: "both empty is mechanically identical",
			a:    Output{},
			b:    Output{},
			want: Divergence{Identical: true, ByteOffset: -1, TokenIndex: -1, TokenA: -1, TokenB: -1, ReasoningByteOffset: -1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Compare(tt.a, tt.b)
			if got != tt.want {
				t.Errorf("Compare:\n got %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

func TestExcerptDoesNotSplitRunes(t *testing.T) {
	// 30 three-byte characters, then a difference: the 40-byte context
	// boundary falls inside a character and must move to a boundary.
	pre := strings.Repeat("漢", 30)
	post := strings.Repeat("字", 30)
	d := Compare(Output{Text: pre + "A" + post}, Output{Text: pre + "B" + post})
	if d.ByteOffset != 90 {
		t.Fatalf("ByteOffset = %d, want 90", d.ByteOffset)
	}
	wantA := "…" + strings.Repeat("漢", 13) + "⟦A" + strings.Repeat("字", 13) + "…"
	if d.ExcerptA != wantA {
		t.Errorf("ExcerptA = %q, want %q", d.ExcerptA, wantA)
	}
}

func TestStrip(t *testing.T) {
	banner := regexp.MustCompile(`^draft model loaded: .*\n`)
	tests := []struct {
		name        string
		text        string
		patterns    []*regexp.Regexp
		want        string
		wantRemoved []string
	}{
		{
			name:        "banner line at the start",
			text:        "draft model loaded: x.gguf\nThe answer is 42.",
			patterns:    []*regexp.Regexp{banner},
			want:        "The answer is 42.",
			wantRemoved: []string{"draft model loaded: x.gguf\n"},
		},
		{
			name:     "no match",
			text:     "The answer is 42.",
			patterns: []*regexp.Regexp{banner},
			want:     "The answer is 42.",
		},
		{
			// ^ matches at line starts without (?m) in the pattern.
			name:        "line-wise, every match, in text order",
			text:        "a\n[spec] accepted 3\nb\n[spec] accepted 1\nc\nWARN x\n",
			patterns:    []*regexp.Regexp{regexp.MustCompile(`^WARN .*\n`), regexp.MustCompile(`^\[spec\] .*\n`)},
			want:        "a\nb\nc\n",
			wantRemoved: []string{"[spec] accepted 3\n", "[spec] accepted 1\n", "WARN x\n"},
		},
		{
			name:        "without the newline the line stays",
			text:        "draft model loaded: x.gguf\nHi",
			patterns:    []*regexp.Regexp{regexp.MustCompile(`^draft model loaded: .*$`)},
			want:        "\nHi",
			wantRemoved: []string{"draft model loaded: x.gguf"},
		},
		{
			name:        "overlapping matches removed once",
			text:        "xxBANNERyy",
			patterns:    []*regexp.Regexp{regexp.MustCompile(`BANNER`), regexp.MustCompile(`NERyy`), nil, regexp.MustCompile(`z*`)},
			want:        "xx",
			wantRemoved: []string{"BANNERyy"},
		},
		{
			name:        "alternation stays inside the multi-line group",
			text:        "a\nb\nc",
			patterns:    []*regexp.Regexp{regexp.MustCompile(`^a\n|^c`)},
			want:        "b\n",
			wantRemoved: []string{"a\n", "c"},
		},
		{
			name:        "opt out of multi-line",
			text:        "x\nx\n",
			patterns:    []*regexp.Regexp{regexp.MustCompile(`(?-m)^x\n`)},
			want:        "x\n",
			wantRemoved: []string{"x\n"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, n, removed := Strip(tt.text, tt.patterns, 100)
			if got != tt.want || n != len(tt.wantRemoved) || !slices.Equal(removed, tt.wantRemoved) {
				t.Errorf("Strip(%q) = %q, %d, %q; want %q, %d, %q", tt.text, got, n, removed, tt.want, len(tt.wantRemoved), tt.wantRemoved)
			}
		})
	}
}

// A banner in one arm's output makes a false divergence at the first byte;
// stripped, the outputs are identical.
func TestStripBannerThenCompare(t *testing.T) {
	banner := []*regexp.Regexp{regexp.MustCompile(`^draft model loaded: .*\n`)}
	base := Output{Text: "The answer is 42."}
	spec := Output{Text: "draft model loaded: x.gguf\nThe answer is 42."}
	if d := Compare(base, spec); d.Identical || d.ByteOffset != 0 {
		t.Fatalf("unstripped: %v", d)
	}
	stripped, n, removed := Strip(spec.Text, banner, 1)
	spec.Text = stripped
	if d := Compare(base, spec); !d.Identical {
		t.Errorf("stripped: %v", d)
	}
	if n != 1 || len(removed) != 1 {
		t.Errorf("removed = %d, %q", n, removed)
	}
}

// Strip counts every span but keeps only the first keep.
func TestStripKeepsTheFirst(t *testing.T) {
	text := strings.Repeat("[spec] x\nok\n", 10)
	got, n, first := Strip(text, []*regexp.Regexp{regexp.MustCompile(`^\[spec\] .*\n`)}, 3)
	if got != strings.Repeat("ok\n", 10) || n != 10 || !slices.Equal(first, []string{"[spec] x\n", "[spec] x\n", "[spec] x\n"}) {
		t.Errorf("Strip = %q, %d, %q", got, n, first)
	}
	if _, n, first := Strip(text, []*regexp.Regexp{regexp.MustCompile(`^\[spec\]`)}, 0); n != 10 || first != nil {
		t.Errorf("keep 0: %d, %q", n, first)
	}
}

// stripEvery is Strip as it was, holding every match: the reference the
// bitmaps are checked against.
func stripEvery(text string, patterns []*regexp.Regexp) (string, []string) {
	type span struct{ lo, hi int }
	var spans []span
	for _, re := range patterns {
		if re == nil {
			continue
		}
		re = regexp.MustCompile("(?m:" + re.String() + ")")
		for _, m := range re.FindAllStringIndex(text, -1) {
			if m[1] > m[0] {
				spans = append(spans, span{m[0], m[1]})
			}
		}
	}
	slices.SortFunc(spans, func(a, b span) int {
		if a.lo != b.lo {
			return a.lo - b.lo
		}
		return b.hi - a.hi
	})
	var merged []span
	for _, s := range spans {
		if len(merged) > 0 && s.lo < merged[len(merged)-1].hi {
			merged[len(merged)-1].hi = max(merged[len(merged)-1].hi, s.hi)
			continue
		}
		merged = append(merged, s)
	}
	var out strings.Builder
	var removed []string
	at := 0
	for _, s := range merged {
		out.WriteString(text[at:s.lo])
		removed = append(removed, text[s.lo:s.hi])
		at = s.hi
	}
	out.WriteString(text[at:])
	return out.String(), removed
}

// Strip removes and counts what the matches found one by one remove, on
// seeded texts of a few letters, line breaks and a two-byte rune, under
// one to three patterns at a time (anchors, word boundaries, empty and
// overlapping matches, matches that touch).
func TestStripSameAsEveryMatch(t *testing.T) {
	pats := []string{`a`, `a+`, `b*`, `ab|a`, `^a`, `a$`, `\bab`, `b\b`, `(?-m)^a`, `(?-m)a$`, `é+`, `.a.`, `a\n`, `^.*\n`, `x*|b`, `\n\n`, `ba?`, `(?s).{3}`}
	alphabet := []string{"a", "b", "\n", " ", "é", "x"}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		var sb strings.Builder
		for range rng.IntN(40) {
			sb.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		text := sb.String()
		var ps []*regexp.Regexp
		for range 1 + rng.IntN(3) {
			ps = append(ps, regexp.MustCompile(pats[rng.IntN(len(pats))]))
		}
		want, wantRemoved := stripEvery(text, ps)
		keep := rng.IntN(4)
		got, n, first := Strip(text, ps, keep)
		if got != want || n != len(wantRemoved) || !slices.Equal(first, wantRemoved[:min(keep, len(wantRemoved))]) {
			t.Fatalf("case %d: Strip(%q, %v, %d) = %q, %d, %q; want %q, %q", i, text, ps, keep, got, n, first, want, wantRemoved)
		}
	}
}

// A text of a million one-byte matches is stripped in a few times its
// length, not in a slice per match (it took about 100 bytes a byte, so a
// runs.jsonl of 16 MB of such outputs made check take 1.9 GB).
func TestStripManyMatchesBounded(t *testing.T) {
	text := strings.Repeat("a", 1<<20)
	a := []*regexp.Regexp{regexp.MustCompile(`a`)}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got, n, first := Strip(text, a, 2)
	runtime.ReadMemStats(&after)
	if got != "" || n != len(text) || !slices.Equal(first, []string{"a", "a"}) {
		t.Fatalf("Strip = %d bytes, %d, %q", len(got), n, first)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4*uint64(len(text)) {
		t.Errorf("Strip of %d one-byte matches allocated %d bytes, want at most %d", len(text), alloc, 4*len(text))
	}
}

func TestEmpty(t *testing.T) {
	tests := []struct {
		name string
		o    Output
		want string
	}{
		{"text", Output{Text: "Hi"}, ""},
		{"text with reasoning", Output{Text: "42", Reasoning: "6*7"}, ""},
		{"text of invalid bytes is not whitespace", Output{Text: "\xff"}, ""},
		{"text after leading whitespace", Output{Text: "\n\nHi"}, ""},
		{"empty", Output{}, "empty output"},
		{"empty with tokens", Output{Tokens: []int{2}}, "empty output (1 tokens produced no text)"},
		{"whitespace only", Output{Text: " \n\t\n"}, "whitespace-only output (4 bytes)"},
		{"unicode whitespace only", Output{Text: "\u00a0\u2003"}, "whitespace-only output (5 bytes)"},
		{"whitespace text and whitespace reasoning", Output{Text: "\n", Reasoning: "  "}, "whitespace-only output (1 bytes)"},
		{"reasoning only", Output{Reasoning: "Let me think. 6*7=42"}, "all text went to the reasoning channel (20 bytes)"},
		{"reasoning and a newline", Output{Text: "\n\n", Reasoning: "Let me think."}, "all text went to the reasoning channel (13 bytes; only 2 bytes of whitespace outside it)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Empty(tt.o); got != tt.want {
				t.Errorf("Empty(%+v) = %q, want %q", tt.o, got, tt.want)
			}
		})
	}
}

func TestSelfAgreement(t *testing.T) {
	run := func(text string, toks ...int) Output { return Output{Text: text, Tokens: toks} }
	tests := []struct {
		name string
		outs []Output
		want Agreement // First checked separately
	}{
		{
			name: "three agree",
			outs: []Output{run("abc", 1, 2), run("abc", 1, 2), run("abc", 1, 2)},
			want: Agreement{Agree: true, Runs: 3, RunA: -1, RunB: -1},
		},
		{
			name: "third disagrees",
			outs: []Output{run("abc", 1, 2), run("abc", 1, 2), run("abd", 1, 3)},
			want: Agreement{Runs: 3, RunA: 0, RunB: 2, Disagreeing: 1},
		},
		{
			name: "second and third disagree: the first is reported",
			outs: []Output{run("abc"), run("xbc"), run("abd")},
			want: Agreement{Runs: 3, RunA: 0, RunB: 1, Disagreeing: 2},
		},
		{
			name: "all empty agree but establish nothing",
			outs: []Output{{Reasoning: "r"}, {Reasoning: "r"}},
			want: Agreement{Runs: 2, RunA: -1, RunB: -1, Uncomparable: "run 0: all text went to the reasoning channel (1 bytes)"},
		},
		{
			name: "one run",
			outs: []Output{run("abc")},
			want: Agreement{Runs: 1, RunA: -1, RunB: -1, Uncomparable: "only one run; self-agreement needs two or more"},
		},
		{
			name: "no runs",
			want: Agreement{RunA: -1, RunB: -1, Uncomparable: "no runs"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := SelfAgreement(tt.outs)
			first := got.First
			got.First = Divergence{}
			if got != tt.want {
				t.Errorf("SelfAgreement:\n got %#v\nwant %#v", got, tt.want)
			}
			switch {
			case got.RunB >= 0:
				if want := Compare(tt.outs[got.RunA], tt.outs[got.RunB]); first != want || first.Identical {
					t.Errorf("First = %+v, want %+v", first, want)
				}
			case len(tt.outs) > 0:
				if !first.Identical {
					t.Errorf("First = %+v, want identical", first)
				}
			default:
				if first.Identical || first.ByteOffset != -1 || first.TokenIndex != -1 {
					t.Errorf("First = %+v, want nothing compared", first)
				}
			}
		})
	}
}
