package safefs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ReadJSON decodes a file of known fields, and refuses an unknown field
// or a second value with an error naming the file.
func TestReadJSONIsStrict(t *testing.T) {
	type st struct {
		A string `json:"a"`
	}
	dir := t.TempDir()
	for _, c := range []struct {
		name, body, want string
	}{
		{"ok.json", `{"a": "x"}` + "\n", ""},
		{"unknown.json", `{"a": "x", "b": 1}`, `unknown field "b"`},
		{"two.json", `{"a": "x"} {"a": "y"}`, "more than one JSON value"},
		{"bad.json", `{"a": `, "unexpected EOF"},
	} {
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, []byte(c.body), 0o600); err != nil {
			t.Fatal(err)
		}
		var v st
		err := ReadJSON(p, 1<<10, &v)
		switch {
		case c.want == "" && (err != nil || v.A != "x"):
			t.Errorf("%s: %+v, %v", c.name, v, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), p)):
			t.Errorf("%s: err = %v, want one naming %s and saying %q", c.name, err, p, c.want)
		}
	}
	// A missing file is the guarded reader's error, unwrapped enough for
	// errors.Is.
	if err := ReadJSON(filepath.Join(dir, "none.json"), 1<<10, &struct{}{}); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}
