package recorder

import (
	"bytes"
	"os"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// FuzzParse feeds arbitrary text to the record parser: it must parse or
// refuse, never panic, and whatever it parses must render again.
func FuzzParse(f *testing.F) {
	for _, p := range []string{"testdata/valid.golden.md", "testdata/rejected.golden.md"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("```" + DataFence + "\n{\"schema\":\"" + schema.Schema + "\"}\n```\n"))
	f.Add([]byte("```" + DataFence + "\n{\"schema\":\"" + schema.Schema + "\",\"runs\":[{\"seq\":1}],\"results\":[{\"arms\":[{}]}]}\n```\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := Parse(bytes.NewReader(data))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := Markdown(&buf, rec); err != nil {
			t.Fatalf("a parsed record does not render: %v", err)
		}
	})
}
