package scenarios

import (
	"strings"
	"testing"
)

// Every shipped scenario says in its header what it measures and how to
// run it, and validates (TestShippedScenariosLoad).
func TestShippedHeaders(t *testing.T) {
	list := ShippedList()
	if len(list) < 6 {
		t.Fatalf("shipped: %v", list)
	}
	for _, s := range list {
		src, err := ShippedSource(s.Name)
		if err != nil {
			t.Fatal(err)
		}
		if s.Summary == "" || !strings.HasSuffix(s.Summary, ".") && !strings.HasSuffix(s.Summary, "?") {
			t.Errorf("%s: the header's first line is not a whole sentence saying what it measures: %q", s.Name, s.Summary)
		}
		header := strings.SplitN(string(src), "\nfeature:", 2)[0]
		if !strings.Contains(header, "Run: ") || !strings.Contains(header, "decodebench run "+s.Name) {
			t.Errorf("%s: the header does not say how to run it (a line \"Run: ... decodebench run %s\")", s.Name, s.Name)
		}
	}
}

func TestHeaderSummary(t *testing.T) {
	for src, want := range map[string]string{
		"# A thing.\n# More.\nfeature: x\n": "A thing.",
		"#\n#   Indented\nfeature: x\n":     "Indented",
		"feature: x\n# not a header\n":      "",
		"":                                  "",
	} {
		if got := HeaderSummary([]byte(src)); got != want {
			t.Errorf("HeaderSummary(%q) = %q, want %q", src, got, want)
		}
	}
}
