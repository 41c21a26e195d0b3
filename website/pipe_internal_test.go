package website

import (
	"bytes"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/recorder"
)

// A value holding | in a record's table cell shows as | on its page, as
// the data block holds it: the recorder escaped text's escape, and the
// page showed "\|" (an engine version, a CPU model, a process name).
func TestAPipeInACellShowsAsAPipe(t *testing.T) {
	src := "| version |\n|---|\n| " + recorder.MarkdownText("ver *em* | pipe\\") + " |\n"
	var out bytes.Buffer
	if err := markdown.Convert([]byte(src), &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "<td>ver *em* | pipe\\</td>") {
		t.Errorf("rendered %q from %q", out.String(), src)
	}
}
