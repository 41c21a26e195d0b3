package review

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/recorder"
)

// A record that holds a format character raw (as a decodebench that did
// not yet show them as \uNNNN wrote an engine version holding a bidi
// override) fails check: its Markdown does not follow from its data
// block, and the problem says why.
func TestRawFormatCharacterFailsCheck(t *testing.T) {
	src, err := os.ReadFile(demoRecord)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := recorder.Parse(bytes.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	rec.Engine.Version = "v1 \u202egnp.exe\u202c"
	var now bytes.Buffer
	if err := recorder.Markdown(&now, rec); err != nil {
		t.Fatal(err)
	}
	if probs := checkRendering(now.Bytes(), rec); len(probs) > 0 {
		t.Fatalf("the rendering itself does not check: %v", probs)
	}
	// What an older decodebench wrote: the characters raw in the
	// Markdown's text and code spans and in the data block.
	old := now.String()
	for _, esc := range []string{`\\u202e`, `\\u202c`, `\u202e`, `\u202c`} {
		old = strings.ReplaceAll(old, esc, map[bool]string{true: "\u202e", false: "\u202c"}[strings.HasSuffix(esc, "e")])
	}
	back, err := recorder.Parse(strings.NewReader(old))
	if err != nil || back.Engine.Version != rec.Engine.Version {
		t.Fatalf("the old record reads %q, %v", back.Engine.Version, err)
	}
	probs := checkRendering([]byte(old), back)
	if len(probs) == 0 {
		t.Fatal("a record holding a bidi override raw passes check")
	}
	for _, p := range probs {
		if strings.Contains(p.Message, "\u202e") || !strings.Contains(p.Message, rawFormatNote) {
			t.Errorf("problem %q: want the note, and no raw override", p)
		}
	}
}
