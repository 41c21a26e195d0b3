package recorder

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// FuzzLoad is the record reader end to end: a record file and its
// runs.jsonl, both fuzzed, read through the guarded reader. It never
// panics; a record that loads names a data folder inside its own folder,
// and runs whose sha256 is the one the record names.
func FuzzLoad(f *testing.F) {
	dd := `"data_dir": "data/x"`
	for _, p := range []string{"testdata/valid.golden.md", "testdata/rejected.golden.md"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b, []byte(`{"seq":1,"arm":"a"}`+"\n"))
		}
	}
	f.Add([]byte("```"+DataFence+"\n{\"schema\":\""+schema.Schema+"\","+dd+"}\n```\n"), []byte("{\"seq\":1}\n{\"seq\""))
	f.Add([]byte("```"+DataFence+"\n{\"schema\":\""+schema.Schema+"\",\"data_dir\":\"../../etc\"}\n```\n"), []byte(""))
	f.Fuzz(func(t *testing.T, record, runs []byte) {
		dir := t.TempDir()
		data := filepath.Join(dir, "data", "x")
		if err := os.MkdirAll(data, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(data, RunsFile), runs, 0o644); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "r.md")
		if err := os.WriteFile(p, record, 0o644); err != nil {
			t.Fatal(err)
		}
		rec, err := Load(p)
		if err != nil {
			return
		}
		d, err := DataPath(p, rec)
		if err != nil || !strings.HasPrefix(d, dir+string(filepath.Separator)) {
			t.Fatalf("loaded a record whose data folder %q (%v) is outside %s", rec.DataDir, err, dir)
		}
		if want := rec.FileSum(RunsFile); want != "" && want != sha(runs) {
			t.Fatalf("loaded runs whose sha256 is not the record's")
		}
	})
}
