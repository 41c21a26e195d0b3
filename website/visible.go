package website

import (
	"bytes"
	"encoding/json"
	"regexp"
	"unicode"

	"github.com/decodebench/decodebench/internal/termsafe"
)

// visibleFormat shows every character of s that prints nothing or moves
// the text around it as an escape (\u202e, \x1b), as the Markdown index
// and the console do (termsafe, the one escaper): bidirectional overrides
// and isolates, zero-width characters, controls (ESC, BEL, DEL, C1), a
// line break or tab too. Every text the site writes from a record, an
// engine or a file name goes through it before the templates escape it
// for HTML.
func visibleFormat(s string) string { return termsafe.String(s) }

// visibleLines is visibleFormat keeping line breaks and tabs (a record's
// text shown as it is).
func visibleLines(s string) string { return termsafe.Text(s) }

// visibleJSON is v as JSON with every string in it (keys too) passed
// through visibleFormat, for the data a page embeds for its script.
func visibleJSON(v any) ([]byte, error) {
	js, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return visibleJSONBytes(js)
}

// controlEscape is how encoding/json writes a control character.
var controlEscape = regexp.MustCompile(`\\u00[01][0-9a-f]|\\u007f`)

// visibleJSONBytes is the JSON js with every string passed through
// visibleFormat; js itself when no string holds a character it would
// show (a JSON that holds one, escaped or not, is decoded and written
// again, its objects' keys sorted).
func visibleJSONBytes(js []byte) ([]byte, error) {
	if !bytes.ContainsFunc(js, hiddenInJSON) && !controlEscape.Match(js) {
		return js, nil
	}
	d := json.NewDecoder(bytes.NewReader(js))
	d.UseNumber()
	var x any
	if err := d.Decode(&x); err != nil {
		return nil, err
	}
	return json.Marshal(visibleValue(x))
}

func hiddenInJSON(r rune) bool { return unicode.Is(unicode.Cf, r) || unicode.IsControl(r) }

func visibleValue(x any) any {
	switch x := x.(type) {
	case string:
		return visibleFormat(x)
	case []any:
		for i := range x {
			x[i] = visibleValue(x[i])
		}
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, v := range x {
			m[visibleFormat(k)] = visibleValue(v)
		}
		return m
	}
	return x
}
