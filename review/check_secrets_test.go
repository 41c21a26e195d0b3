package review

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// A record, or its stored scenario, that holds what decodebench masks
// wherever it writes it (a token of known form, here in the title and in
// a comment of the scenario copy) fails check, which names the line and
// never the token; the record as written passes (every committed record
// does: TestCommittedRecordsPass).
func TestCheckFindsACredentialInARecord(t *testing.T) {
	const token = "ghp_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z1234"
	checkEdits(t, "identity-chaotic-xeon-2026-12-03", []recordEdit{
		{what: "as written", edit: func(*schema.Record) {}},
		{what: "a token in the title", edit: func(r *schema.Record) { r.Title += " (mirror " + token + ")" },
			want: "identity-chaotic-xeon-2026-12-03.md line "},
	})
	// The scenario copy with the token, its sha256 in the record.
	const name = "identity-chaotic-xeon-2026-12-03"
	rec, err := recorder.Load(filepath.Join("..", "docs", "benchmark_results", name+".md"))
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(t.TempDir(), name)
	copyTree(t, filepath.Join("..", "docs", "benchmark_results", "data", name), src)
	f, err := os.OpenFile(filepath.Join(src, recorder.ScenarioFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("# mirror " + token + "\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if got := problemsText(Check(writeCopy(t, t.TempDir(), src, rec))); !strings.Contains(got, "the stored scenario (scenario.yaml) line ") || strings.Contains(got, token) {
		t.Errorf("a token in the stored scenario: check found %s", got)
	}
	probs := checkSecrets("Record", "x.md", []byte("a\nb "+token+"\n"))
	if len(probs) != 1 || problemsText(probs) == "" || strings.Contains(problemsText(probs), token) || !strings.Contains(problemsText(probs), "x.md line 2 ") {
		t.Errorf("checkSecrets: %v", probs)
	}
}
