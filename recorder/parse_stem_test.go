package recorder

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A date is a real calendar date; a name must fit a file name with its -N
// suffix; both refused before Reserve creates anything.
func TestCheckName(t *testing.T) {
	for _, d := range []string{"2026-02-30", "2026-13-01", "2026-00-10", "2025-02-29", "2026-04-31", "0000-00-00", "2026-1-01", "20260101"} {
		if err := CheckDate(d); err == nil {
			t.Errorf("date %s accepted", d)
		}
	}
	for _, d := range []string{"2024-02-29", "2026-12-31", "2026-01-01"} {
		if err := CheckDate(d); err != nil {
			t.Errorf("date %s: %v", d, err)
		}
	}
	long := strings.Repeat("a", 200)
	for _, c := range [][3]string{{long, "xeon", "2026-01-01"}, {"f", long, "2026-01-01"}, {"f", "xeon", "2026-02-30"}} {
		out := t.TempDir()
		if _, _, err := Reserve(filepath.Join(out, "o"), c[0], c[1], c[2]); err == nil {
			t.Errorf("Reserve(%.20q…) accepted", c)
		}
		if _, err := os.Stat(filepath.Join(out, "o")); err == nil {
			t.Errorf("Reserve(%.20q…) created the output folder before refusing", c)
		}
	}
	if err := CheckName(strings.Repeat("a", 150), strings.Repeat("b", 30), "2026-01-01"); err != nil {
		t.Errorf("a name that fits: %v", err)
	}
}

func TestParseStem(t *testing.T) {
	good := map[string]Stem{
		"spec-draft-xeon-2026-11-29":     {"spec-draft", "xeon", "2026-11-29", 0},
		"spec-draft-xeon-2026-11-29-2":   {"spec-draft", "xeon", "2026-11-29", 2},
		"spec-draft-m3max-2026-11-29-42": {"spec-draft", "m3max", "2026-11-29", 42},
	}
	for stem, want := range good {
		got, err := ParseStem(stem, "spec-draft")
		if err != nil || got != want || got.String() != stem {
			t.Errorf("%s: %+v %v, want %+v", stem, got, err, want)
		}
	}
	for _, stem := range []string{"", "spec-draft", "spec-draft-xeon", "spec-draft-xeon-2026-11-29-1", "spec-draft-xeon-2026-11-29-02",
		"spec-draft-xeon-2026-11-29-", "spec-draft-xeon-2026-11-29x", "spec-draft-xe-on-2026-11-29", "spec-draft-xeon-2026-02-30",
		"spec-draft-xeon-2026-11-29/../../x", "other-xeon-2026-11-29", "spec-draft-../xeon-2026-11-29", "spec-draft-xeon-2026-11-29-1000"} {
		if got, err := ParseStem(stem, "spec-draft"); err == nil {
			t.Errorf("%q accepted as %+v", stem, got)
		}
	}
}
