package schema

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// reasonsDoc is the reference page whose table lists every reason code.
const reasonsDoc = "../docs/reference/record-format.md"

// Every reason code the schema knows (allReasons, the list records are
// read by) is in the reference's table of codes, and every code there is
// one the schema knows: a new reason without a line in the reference fails
// here, and so does a documented code no record can hold.
func TestReasonCodesDocumented(t *testing.T) {
	b, err := os.ReadFile(reasonsDoc)
	if err != nil {
		t.Fatal(err)
	}
	cell := regexp.MustCompile("^\\| `([^`]+)` \\|")
	documented := map[Code]int{}
	inTable := false
	for i, l := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(l, "| code |"):
			inTable = true
		case !strings.HasPrefix(l, "|"):
			inTable = false
		case inTable:
			if m := cell.FindStringSubmatch(l); m != nil {
				if first, dup := documented[Code(m[1])]; dup {
					t.Errorf("%s:%d: %s is listed again (first at line %d)", reasonsDoc, i+1, m[1], first)
				}
				documented[Code(m[1])] = i + 1
			}
		}
	}
	if len(allReasons) < 40 {
		t.Fatalf("only %d reasons known", len(allReasons))
	}
	for _, r := range allReasons {
		if _, ok := documented[r.Code()]; !ok {
			t.Errorf("%s: reason code %s (%T) is not in the table of codes", reasonsDoc, r.Code(), r)
		}
	}
	for code, line := range documented {
		if _, ok := reasonTypes[code]; !ok {
			t.Errorf("%s:%d: %s is documented, but no reason has that code", reasonsDoc, line, code)
		}
	}
}
