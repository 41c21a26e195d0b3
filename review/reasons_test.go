package review

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/decodebench/decodebench/internal/committed"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// A reason edited by hand fails check in a v2 record (reasons stored in
// the legacy form) as in a v3 one: a changed field changes the analysis
// and its sentence, and a field the reason does not use is not rendered
// back.
func TestEditedReasonFailsCheck(t *testing.T) {
	const name = "spec-draft-epyc-2026-11-29"
	copyRecord := func(t *testing.T) string { return filepath.Join(committed.Copy(t, name), name+".md") }
	edit := func(t *testing.T, path, old, nu string) {
		b, _ := os.ReadFile(path)
		if !bytes.Contains(b, []byte(old)) {
			t.Fatalf("no %q in the record", old)
		}
		if err := os.WriteFile(path, bytes.Replace(b, []byte(old), []byte(nu), 1), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	contention := "\"code\": \"contention\",\n        "
	for _, tt := range []struct {
		name      string
		v3        bool
		old, edit string
	}{
		{"v2 field", false, contention + "\"n\": 2,", contention + "\"n\": 3,"},
		{"v2 unused field", false, contention + "\"n\": 2,", contention + "\"n\": 2,\n        \"p\": 0.5,"},
		{"v3 field", true, contention + "\"runs\": 2,", contention + "\"runs\": 3,"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := copyRecord(t)
			if tt.v3 {
				rec, err := recorder.Load(path)
				if err != nil {
					t.Fatal(err)
				}
				rec.Schema = schema.Schema
				var buf bytes.Buffer
				if err := recorder.Markdown(&buf, rec); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if probs := Check(path); len(probs) > 0 {
				t.Fatalf("before the edit: %v", probs)
			}
			edit(t, path, tt.old, tt.edit)
			if len(Check(path)) == 0 {
				t.Error("an edited reason passes check")
			}
		})
	}
}
