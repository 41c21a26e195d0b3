package review

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/recorder"
)

// namedSizes are the sizes of the files a record names, in its order.
func namedSizes(t *testing.T, path string) (names []string, sizes []int64) {
	t.Helper()
	rec, err := recorder.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(filepath.Dir(path), filepath.FromSlash(rec.DataDir))
	for _, f := range rec.Files {
		names = append(names, f.Path)
		sizes = append(sizes, mustStat(t, filepath.Join(dir, filepath.FromSlash(f.Path))).Size())
	}
	return names, sizes
}

// The files a record names are hashed within one budget for its data
// folder (600 files of 1 GiB each, sparse, took ten minutes): the file at
// which it runs out is named, nothing after it is read, and the record
// fails, from the cache or not; within the budget it passes.
func TestFolderBudget(t *testing.T) {
	paths := generated(t, 1)
	names, sizes := namedSizes(t, paths[0])
	var total int64
	for _, s := range sizes {
		total += s
	}
	// The campaign state is read too.
	if st, err := os.Stat(filepath.Join(filepath.Dir(paths[0]), "data", stemOf(paths[0]), campaignStateFile)); err == nil {
		total += st.Size()
	}
	// The budget runs out at the file that holds the middle byte.
	at, sum := 0, int64(0)
	for sum+sizes[at] <= total/2 {
		sum += sizes[at]
		at++
	}
	old := folderBudget
	defer func() { folderBudget = old }()
	folderBudget = total / 2

	want := names[at] + " (" // the message starts with the file
	for _, cached := range []bool{false, true} {
		var probs []Problem
		if cached {
			r := CheckAll(paths, &CheckCache{Dir: t.TempDir(), Identity: "build-a"})[0]
			probs = r.Problems
		} else {
			probs = Check(paths[0])
		}
		if len(probs) != 1 || probs[0].Section != "Data" || !strings.HasPrefix(probs[0].Message, want) || !strings.Contains(probs[0].Message, "the most check hashes of one data folder") {
			t.Errorf("cached %v: budget %d of %d bytes: problems %v, want one naming %s", cached, folderBudget, total, probs, names[at])
		}
	}

	// Refused before a byte is read: a file before the one that passes
	// the budget, changed, is not reported (hashing it first cost up to
	// the whole budget on every check of a crafted folder).
	if at == 0 {
		t.Fatalf("the budget runs out at the first file: nothing before it to change")
	}
	first := filepath.Join(filepath.Dir(paths[0]), "data", stemOf(paths[0]), filepath.FromSlash(names[0]))
	orig, err := os.ReadFile(first)
	if err != nil {
		t.Fatal(err)
	}
	changed := append([]byte(nil), orig...)
	changed[len(changed)/2] ^= 1
	if err := os.WriteFile(first, changed, 0o644); err != nil {
		t.Fatal(err)
	}
	if probs := Check(paths[0]); len(probs) != 1 || !strings.HasPrefix(probs[0].Message, want) {
		t.Errorf("%s changed before the file that passes the budget: problems %v, want only the budget's, naming %s", names[0], probs, names[at])
	}
	if err := os.WriteFile(first, orig, 0o644); err != nil {
		t.Fatal(err)
	}

	folderBudget = total
	if probs := Check(paths[0]); len(probs) != 0 {
		t.Errorf("within the budget: %v", probs)
	}
}

// The cache's scan reads the files check reads (those the record names,
// runs.jsonl and the stored scenario), not the others: a file the record
// does not name is reported by its path whatever it holds, and counts
// toward no budget. It still changes the key: a file added checks
// afresh.
func TestScanReadsOnlyNamedFiles(t *testing.T) {
	paths := generated(t, 1)
	names, sizes := namedSizes(t, paths[0])
	var total int64
	for _, s := range sizes {
		total += s
	}
	// The campaign state is read too.
	if st, err := os.Stat(filepath.Join(filepath.Dir(paths[0]), "data", stemOf(paths[0]), campaignStateFile)); err == nil {
		total += st.Size()
	}
	old := folderBudget
	defer func() { folderBudget = old }()
	folderBudget = total

	cache := &CheckCache{Dir: t.TempDir(), Identity: "build-a"}
	dataDir := filepath.Join(filepath.Dir(paths[0]), "data", stemOf(paths[0]))
	if err := os.WriteFile(filepath.Join(dataDir, "extra.bin"), make([]byte, total+1), 0o644); err != nil {
		t.Fatal(err)
	}
	filesHashed.Store(0)
	r := CheckAll(paths, cache)[0]
	if r.Cached || len(r.Problems) != 1 || r.Problems[0].Message != "extra.bin is in the data folder but the record does not name it" {
		t.Fatalf("an unnamed file over the budget: cached %v, problems %v", r.Cached, r.Problems)
	}
	// Each named file (and the campaign state) is read by the scan, and again by the scan that
	// confirms the key before the result is stored (within the racy
	// window, the memo is not trusted).
	if n := filesHashed.Load(); n > int64(2*(len(names)+1)) {
		t.Errorf("the scans read %d files; the record names %d, and the campaign state", n, len(names))
	}
	if r := CheckAll(paths, cache)[0]; !r.Cached {
		t.Errorf("unchanged: not from the cache")
	}
	if err := os.WriteFile(filepath.Join(dataDir, "extra2.bin"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if r := CheckAll(paths, cache)[0]; r.Cached || len(r.Problems) != 2 {
		t.Errorf("a file added: cached %v, problems %v", r.Cached, r.Problems)
	}
}
