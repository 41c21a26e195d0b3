package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/decodebench/decodebench/internal/execfile"
)

// An engine whose --version prints bytes that are not UTF-8 is
// identified by valid UTF-8 (each run of such bytes U+FFFD), as the record's JSON
// holds it: written raw, its own record failed check.
func TestVersionIsValidUTF8(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "eng")
	if err := execfile.Write(bin, []byte("#!/bin/sh\nprintf 'eng v1 \\377\\376 build'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	id := Identify(context.Background(), bin, os.Environ(), "")
	if !utf8.ValidString(id.Version) || id.Version != "eng v1 \uFFFD build" {
		t.Errorf("version %q", id.Version)
	}
	if got := cutText("ab\u00e9", 3); !utf8.ValidString(got) {
		t.Errorf("cut inside a rune: %q", got)
	}
}
