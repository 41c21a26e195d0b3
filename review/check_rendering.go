package review

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// checkRendering renders the record from its data block and runs and
// compares it with the file, line by line.
func checkRendering(src []byte, rec *schema.Record) []Problem {
	var buf bytes.Buffer
	if err := recorder.Markdown(&buf, rec); err != nil {
		return []Problem{{"Data", err.Error()}}
	}
	if bytes.Equal(buf.Bytes(), src) {
		return nil
	}
	got := lines(src)
	want := lines(buf.Bytes())
	var probs []Problem
	section := "Title"
	for i := 0; i < max(len(got), len(want)) && len(probs) < 10; i++ {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if strings.HasPrefix(g, "## ") {
			section = strings.TrimPrefix(g, "## ")
		}
		if g != w {
			msg := fmt.Sprintf("line %d does not follow from the data block and the runs:\n      in the record: %s\n      rendered:      %s", i+1, excerpt(g), excerpt(w))
			if strings.ContainsFunc(g, isFormat) {
				msg += "\n      " + rawFormatNote
			}
			probs = append(probs, Problem{section, msg})
			if len(got) != len(want) {
				break // a line added or removed shifts every line after it
			}
		}
	}
	return probs
}

// rawFormatNote says why a line holding a format character raw does not
// follow: the recorder shows every one as its \uNNNN (a bidirectional
// control, a zero-width or tag character reorders or hides what is read
// around it), and a record written before it did, or edited, holds one
// raw. Such a record is flagged, not re-rendered as it was: its Markdown
// would show readers text other than what it holds.
const rawFormatNote = "the record holds a format character (a bidirectional control, a zero-width or tag character) raw, " +
	"where decodebench writes it as its \\uNNNN: it was written by an older decodebench, or edited"

func isFormat(r rune) bool { return unicode.Is(unicode.Cf, r) }

func lines(b []byte) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

// excerpt is a line of at most 160 characters as it is, a longer one's
// first 160 and "…", escaped for the terminal; it reads no more of the
// line than it keeps.
func excerpt(s string) string {
	var b strings.Builder
	for i, kept := 0, 0; i < len(s); kept++ {
		if kept == 160 {
			return termsafe.String(b.String()) + "…"
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		b.WriteRune(r)
		i += size
	}
	return termsafe.String(s)
}
