package termsafe

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// The forms issue 19 item 11 names: a carriage return that redraws a FAIL
// line as "ok", CSI that clears the screen, OSC that retitles the window or
// writes the clipboard (OSC 52), C1 controls, DEL, bidirectional overrides
// and isolates, every other format character (tags, a soft hyphen), and
// bytes that are not UTF-8.
func TestStringEscapes(t *testing.T) {
	for in, want := range map[string]string{
		"plain ascii":                                        "plain ascii",
		"FAIL x.md\rok   x.md":                               `FAIL x.md\rok   x.md`,
		"\x1b[2J\x1b]0;title\x07":                            `\x1b[2J\x1b]0;title\x07`,
		"\x1b]52;c;cHduZWQ=\x1b\\":                           `\x1b]52;c;cHduZWQ=\x1b\`,
		"a\u009bb\u0085c\x7f":                                `a\x9bb\x85c\x7f`,
		"evil\u202egnp.md\u2066x\u2069":                      `evil\u202egnp.md\u2066x\u2069`,
		"line\nbreak\ttab":                                   `line\nbreak\ttab`,
		"bad \xff\xfe utf8":                                  `bad \xff\xfe utf8`,
		"héllo — ✓ 日本":                                       "héllo — ✓ 日本",
		"zero\u200bwidth\ufeffbom\u2028sep":                  `zero\u200bwidth\ufeffbom\u2028sep`,
		"tag\U000E0041\U000E0042 alm\u061c soft\u00adhyphen": `tag\ue0041\ue0042 alm\u061c soft\u00adhyphen`,
	} {
		if got := String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Text("two\nlines\r\x1b[1A"); got != "two\nlines\\r\\x1b[1A" {
		t.Errorf("Text keeps line breaks only: %q", got)
	}
	if !Bidi("a\u202eb") || !Bidi("\u2067") || Bidi("abc") {
		t.Error("Bidi")
	}
}

// The console writer escapes what passes through it after its filter,
// and WriteControl alone passes decodebench's own sequences.
func TestWriter(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b, func(s string) string { return strings.ReplaceAll(s, "hunter2", "[redacted]") })
	if n, err := w.Write([]byte("pw hunter2\x1b]52;c;x\x07\n")); err != nil || n != 20 {
		t.Fatalf("Write = %d, %v", n, err)
	}
	if err := Control(w, "\r\x1b[K"); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != "pw [redacted]\\x1b]52;c;x\\x07\n\r\x1b[K" {
		t.Errorf("got %q", got)
	}
}

// FuzzEscape: nothing String returns can act on a terminal (no control,
// format or invalid byte), Text differs from it only by keeping line
// breaks and tabs, and safe text passes through unchanged.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"", "ok", "\r\x1b[2J", "\x1b]52;c;AAAA\x07", "\u202e\u2066", "\xff", "a\nb\tc", "\u009b31m"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := String(s)
		if !utf8.ValidString(out) {
			t.Fatalf("String(%q) = %q: not UTF-8", s, out)
		}
		for _, r := range out {
			if unsafeRune(r) {
				t.Fatalf("String(%q) = %q holds %U", s, out, r)
			}
		}
		if utf8.ValidString(s) && !strings.ContainsFunc(s, unsafeRune) && out != s {
			t.Fatalf("String(%q) = %q changed safe text", s, out)
		}
		if String(out) != out {
			t.Fatalf("String is not idempotent on %q", s)
		}
		text := Text(s)
		for _, r := range text {
			if unsafeRune(r) && r != '\n' && r != '\t' {
				t.Fatalf("Text(%q) = %q holds %U", s, text, r)
			}
		}
		if strings.Count(text, "\n") != strings.Count(s, "\n") {
			t.Fatalf("Text(%q) changed the line count", s)
		}
	})
}
