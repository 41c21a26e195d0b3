package bisect

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The shipped bisect scenario names its reference and candidate arms; a
// scenario that does not run both worktrees, or has two candidates, is
// refused before anything is built.
func TestBisectArms(t *testing.T) {
	s, _, err := loadStep("llamacpp-bisect", "/c", "/r", nil)
	if err != nil {
		t.Fatal(err)
	}
	ref, cand, err := bisectArms(s)
	if err != nil || ref != "reference" || cand != "candidate" {
		t.Fatalf("arms %q %q, %v", ref, cand, err)
	}
	if got := s.Arms[1].Engine; got == nil || !strings.HasPrefix(got.Command[0], "/c/") {
		t.Errorf("the candidate's engine does not run from ${CANDIDATE_DIR}: %+v", got)
	}
	if !strings.HasPrefix(s.Engine.Command[0], "/r/") {
		t.Errorf("the reference's engine does not run from ${REFERENCE_DIR}: %v", s.Engine.Command)
	}
	src, err := os.ReadFile(filepath.Join("..", "scenarios", "llamacpp-bisect.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string][2]string{
		"never uses ${CANDIDATE_DIR}": {`["${CANDIDATE_DIR}/build/bin/llama-server"`, `["/opt/other/llama-server"`},
		"are both candidates":         {"baseline: reference\n", "baseline: reference\n  \n"},
	} {
		text := strings.Replace(string(src), edit[0], edit[1], 1)
		text = strings.Replace(text, `source: "${CANDIDATE_DIR}"`, `source: ""`, 1)
		if name == "are both candidates" {
			text = strings.Replace(text, "  - name: reference\n", "  - name: reference\n  - name: other\n    args: [\"-t\", \"1\"]\n", 1)
		}
		p := filepath.Join(t.TempDir(), "s.yaml")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		s, _, err := loadStep(p, "/c", "/r", nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, _, err := bisectArms(s); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%v, want an error saying %q", err, name)
		}
	}
}
