package recorder

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// dataBlockSplit is dataBlock as it was written first, over a slice of
// lines: the reference the in-place walk must agree with.
func dataBlockSplit(src []byte) (string, int, error) {
	lines := strings.Split(string(src), "\n")
	start := -1
	for i, l := range lines {
		if strings.TrimRight(l, "\r") == dataFenceStart {
			if start >= 0 {
				return "", 0, fmt.Errorf("line %d: a second data block (the first is at line %d): a record has exactly one", i+1, start+1)
			}
			start = i
		}
	}
	if start < 0 {
		return "", 0, errors.New("no " + dataFenceStart + " block: not a decodebench record")
	}
	end := -1
	for i := start + 1; i < len(lines); i++ {
		if strings.TrimRight(lines[i], "\r") == dataFenceEnd {
			end = i
			break
		}
	}
	if end < 0 {
		return "", 0, fmt.Errorf("line %d: data block is not closed", start+1)
	}
	trailer := false
	for i := end + 1; i < len(lines); i++ {
		switch t := strings.TrimSpace(lines[i]); {
		case t == "":
		case t == dataTrailer && !trailer:
			trailer = true
		default:
			return "", 0, fmt.Errorf("line %d: text after the data block: the data block must be the last thing in a record", i+1)
		}
	}
	return strings.Join(lines[start+1:end], "\n"), start + 1, nil
}

// dataBlock finds the same block, line and error as splitting the record
// into lines does, on every committed record and on records with a
// second block (before or after text that follows the first), none, an
// unclosed one, an empty one, text or a second trailer after it, and
// carriage returns.
func FuzzDataBlock(f *testing.F) {
	paths, _ := filepath.Glob("../docs/benchmark_results/*.md")
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	fence := dataFenceStart + "\n{}\n" + dataFenceEnd + "\n"
	for _, s := range []string{
		"", "\n", fence, fence + dataTrailer + "\n", fence + dataTrailer + "\n" + dataTrailer + "\n",
		fence + "text\n", fence + "text\n" + fence, fence + fence, "# t\n" + dataFenceStart + "\n{}\n",
		dataFenceStart + "\n" + dataFenceEnd, dataFenceStart + "\r\n{\"a\":1}\r\n" + dataFenceEnd + "\r\n",
		"a\n" + dataFenceStart + "\n{\n}\n" + dataFenceEnd + "\n\n  \n" + dataTrailer,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		body, line, err := dataBlock(src)
		wbody, wline, werr := dataBlockSplit(src)
		if body != wbody || line != wline || (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
			t.Fatalf("(%q, %d, %v), splitting gives (%q, %d, %v)", body, line, err, wbody, wline, werr)
		}
	})
}
