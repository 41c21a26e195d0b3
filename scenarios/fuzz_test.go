package scenarios

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse feeds arbitrary bytes to the scenario loader: it must return a
// scenario or errors, never panic, and every error must name the file.
func FuzzParse(f *testing.F) {
	if b, err := ShippedSource("llamacpp-speculative"); err == nil {
		f.Add(b)
	}
	files, _ := filepath.Glob("testdata/bad/*.yaml")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("feature: [\n"))
	f.Add([]byte("arms: &a [*a]\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		s, _, err := Parse("fuzz.yaml", "testdata", src, Options{LookupEnv: noEnv})
		if err != nil {
			if es, ok := err.(Errors); ok {
				for _, e := range es {
					if e.File != "fuzz.yaml" {
						t.Fatalf("error without the file name: %v", e)
					}
				}
			}
			return
		}
		if s.Feature == "" || len(s.Arms) < 2 || len(s.Unmeasured) == 0 {
			t.Fatalf("accepted an invalid scenario: %+v", s)
		}
		_ = s.Hash()
	})
}
