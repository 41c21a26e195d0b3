package review

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"unicode/utf8"
)

// The committed index (docs/benchmark_results/README.md and index/) is
// what `decodebench index docs/benchmark_results` writes today: a record
// added without rerunning index, or a change to the index's rendering,
// fails here. The index is generated, not a record: regenerate it with
// that command and commit the result.
func TestCommittedIndexIsCurrent(t *testing.T) {
	committed := filepath.Join("..", "docs", "benchmark_results")
	tmp := filepath.Join(t.TempDir(), "benchmark_results")
	copyTree(t, committed, tmp)
	if _, err := Index(tmp, nil); err != nil {
		t.Fatal(err)
	}
	written := indexFiles(t, tmp)
	have := indexFiles(t, committed)
	const fix = "; regenerate it: decodebench index docs/benchmark_results"
	for _, name := range written {
		want, err := os.ReadFile(filepath.Join(tmp, name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(committed, name))
		switch {
		case err != nil:
			t.Errorf("docs/benchmark_results/%s: index writes it, it is not committed%s", name, fix)
		case !bytes.Equal(got, want):
			t.Errorf("docs/benchmark_results/%s: not what index writes (%s)%s", name, firstDiff(got, want), fix)
		}
	}
	for _, name := range have {
		if !slices.Contains(written, name) {
			t.Errorf("docs/benchmark_results/%s: committed, index no longer writes it; remove it", name)
		}
	}
}

// indexFiles lists the index's files under dir: its README.md and every
// file of index/, slash-separated relative paths, sorted.
func indexFiles(t *testing.T, dir string) []string {
	t.Helper()
	out := []string{IndexFile}
	err := filepath.WalkDir(filepath.Join(dir, indexPlotDir), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		out = append(out, filepath.ToSlash(rel))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// firstDiff names the first line where got and want differ (a plot is
// only said to differ).
func firstDiff(got, want []byte) string {
	if !utf8.Valid(got) || !utf8.Valid(want) || bytes.IndexByte(want, 0) >= 0 {
		return "other bytes"
	}
	g, w := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
	for i := range max(len(g), len(w)) {
		var a, b []byte
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if !bytes.Equal(a, b) {
			return "line " + strconv.Itoa(i+1) + ": committed " + quoteShort(a) + ", index writes " + quoteShort(b)
		}
	}
	return "same lines"
}

func quoteShort(b []byte) string {
	if len(b) > 160 {
		b = append(b[:160:160], "…"...)
	}
	return "\"" + string(b) + "\""
}
