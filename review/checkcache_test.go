package review

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/decodebench/decodebench/internal/synthrecords"
	"github.com/decodebench/decodebench/schema"
)

const demoRecord = "../docs/benchmark_results/spec-draft-epyc-2026-11-29.md"

// generated writes n generated records into a fresh folder.
func generated(t testing.TB, n int) []string {
	t.Helper()
	paths, err := synthrecords.Generate(synthrecords.Spec{Source: demoRecord, Dir: t.TempDir(), N: n,
		Start: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Hardware: []string{"epyc", "xeon"}})
	if err != nil {
		t.Fatal(err)
	}
	return paths
}

func cachedCount(rs []Checked) int {
	n := 0
	for _, r := range rs {
		if r.Cached {
			n++
		}
	}
	return n
}

func TestGeneratedRecordsPassCheck(t *testing.T) {
	for _, r := range CheckAll(generated(t, 3), nil) {
		for _, p := range r.Problems {
			t.Errorf("%s: %s", filepath.Base(r.Path), p)
		}
	}
}

// A second check of unchanged records comes from the cache with the same
// result; a changed byte in the record, in any data file, a file added to
// the data folder or another decodebench re-checks, and the changed record
// fails.
func TestCheckCacheByContent(t *testing.T) {
	paths := generated(t, 3)
	cache := &CheckCache{Dir: t.TempDir(), Identity: "build-a"}
	first := CheckAll(paths, cache)
	if n := cachedCount(first); n != 0 {
		t.Fatalf("a cold cache answered %d checks", n)
	}
	second := CheckAll(paths, cache)
	if n := cachedCount(second); n != len(paths) {
		t.Fatalf("a warm cache answered %d of %d checks", n, len(paths))
	}
	for i := range paths {
		if len(first[i].Problems) != 0 || len(second[i].Problems) != 0 {
			t.Fatalf("%s: problems %v then %v", paths[i], first[i].Problems, second[i].Problems)
		}
	}

	other := &CheckCache{Dir: cache.Dir, Identity: "build-b"}
	if n := cachedCount(CheckAll(paths, other)); n != 0 {
		t.Errorf("another decodebench took %d results checked by the first", n)
	}

	dataDir := filepath.Join(filepath.Dir(paths[1]), "data", stemOf(paths[1]))
	tamper := map[string]func(){
		"record": func() { flipLastDigit(t, paths[0], "| 1 | 1 |") },
		"log": func() {
			logs, _ := filepath.Glob(filepath.Join(dataDir, "logs", "*.log"))
			appendTo(t, logs[0], "x")
		},
		"extra file": func() {
			if err := os.WriteFile(filepath.Join(filepath.Dir(paths[2]), "data", stemOf(paths[2]), "extra.txt"), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		},
	}
	for _, name := range []string{"record", "log", "extra file"} {
		tamper[name]()
	}
	third := CheckAll(paths, cache)
	for i, r := range third {
		if r.Cached {
			t.Errorf("%s: changed (%d), yet its result came from the cache", filepath.Base(r.Path), i)
		}
		if len(r.Problems) == 0 {
			t.Errorf("%s: changed, yet check finds nothing", filepath.Base(r.Path))
		}
	}
	if n := cachedCount(CheckAll(paths, cache)); n != len(paths) {
		t.Errorf("the failing results were not kept: %d of %d from the cache", n, len(paths))
	}
}

// An entry that does not parse, or holds another key, is not trusted: the
// record is checked again and the entry rewritten.
func TestCheckCacheMalformedEntries(t *testing.T) {
	paths := generated(t, 1)
	cache := &CheckCache{Dir: t.TempDir(), Identity: "build-a"}
	CheckAll(paths, cache)
	entries := entryFiles(cache.Dir)
	if len(entries) != 1 {
		t.Fatalf("%d cache entries, want 1", len(entries))
	}
	good, err := os.ReadFile(entries[0])
	if err != nil {
		t.Fatal(err)
	}
	key := filepath.Base(entries[0][:len(entries[0])-5])
	abs, _ := filepath.Abs(paths[0])
	rec, _ := json.Marshal(abs)
	for name, bad := range map[string]string{
		"truncated":      string(good[:len(good)/2]),
		"not json":       "ok",
		"another key":    `{"format":"` + cacheFormat + `","key":"00","record":` + string(rec) + `,"problems":[]}`,
		"another record": `{"format":"` + cacheFormat + `","key":"` + key + `","record":"/elsewhere.md","problems":[]}`,
		"no problems":    `{"format":"` + cacheFormat + `","key":"` + key + `","record":` + string(rec) + `}`,
		"old format":     `{"format":"decodebench/check-cache/v1","key":"` + key + `","problems":[]}`,
		"trailing data":  string(good) + "{}",
	} {
		if err := os.WriteFile(entries[0], []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		if r := CheckAll(paths, cache)[0]; r.Cached || len(r.Problems) != 0 {
			t.Errorf("%s entry: cached %v, problems %v", name, r.Cached, r.Problems)
		}
		if r := CheckAll(paths, cache)[0]; !r.Cached {
			t.Errorf("%s entry was not rewritten", name)
		}
	}
}

// entryFiles is the cache's entries (DIR/ab/RECORD/KEY.json), memos
// (DIR/files/…) left out.
func entryFiles(dir string) []string {
	all, _ := filepath.Glob(filepath.Join(dir, "*", "*", "*.json"))
	var out []string
	for _, p := range all {
		if !strings.HasPrefix(p, filepath.Join(dir, "files")+string(filepath.Separator)) {
			out = append(out, p)
		}
	}
	return out
}

func stemOf(path string) string { return filepath.Base(path[:len(path)-len(".md")]) }

func appendTo(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}

// flipLastDigit changes the last digit on the first line containing marker.
func flipLastDigit(t *testing.T, path, marker string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	at := -1
	for i := 0; i+len(marker) <= len(b); i++ {
		if string(b[i:i+len(marker)]) == marker {
			at = i
			break
		}
	}
	if at < 0 {
		t.Fatalf("%s: no line with %q", path, marker)
	}
	for i := at + len(marker); i < len(b) && b[i] != '\n'; i++ {
		if b[i] >= '0' && b[i] <= '8' {
			b[i]++
			break
		}
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A record written under the current rule (schema.RuleCurrent) renders
// its rule's sentences and passes check, as the committed records under
// the first rule still do.
func TestCurrentRuleRecordsPassCheck(t *testing.T) {
	// Dated after the current rule came (schema.RuleSince): a record of a
	// rule is never older than the rule (a fixed date broke with the next
	// rule made current the same day).
	since, ok := schema.RuleSince(schema.RuleCurrent)
	if !ok {
		t.Fatalf("the current rule %s has no date", schema.RuleCurrent)
	}
	paths, err := synthrecords.Generate(synthrecords.Spec{Source: demoRecord, Dir: t.TempDir(), N: 2, Rule: schema.RuleCurrent,
		Start: since.Add(time.Hour), Hardware: []string{"epyc"}, Noise: 0.02, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range CheckAll(paths, nil) {
		for _, p := range r.Problems {
			t.Errorf("%s: %s", filepath.Base(r.Path), p)
		}
	}
	md, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Statistics (rule `" + string(schema.RuleCurrent) + "`)", "at level 0.05", "ratio intervals round by round"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("record lacks %q", want)
		}
	}
}

// A warm check reads no data file whose stat is the one the memo holds;
// a file rewritten to the same size with its modification time set back
// still moves its change time, and is read, and the record fails.
func TestCheckCacheFileMemo(t *testing.T) {
	if _, ok := statOf(mustStat(t, demoRecord)); !ok {
		t.Skip("no file stat memo on this system: every data file is read")
	}
	paths := generated(t, 1)
	time.Sleep(time.Second + 100*time.Millisecond) // past the racy window
	cache := &CheckCache{Dir: t.TempDir(), Identity: "build-a"}
	CheckAll(paths, cache)
	filesHashed.Store(0)
	if r := CheckAll(paths, cache)[0]; !r.Cached || len(r.Problems) != 0 {
		t.Fatalf("warm: cached %v, problems %v", r.Cached, r.Problems)
	}
	if n := filesHashed.Load(); n != 0 {
		t.Errorf("a warm check read %d data files whose stat had not moved", n)
	}
	logs, _ := filepath.Glob(filepath.Join(filepath.Dir(paths[0]), "data", stemOf(paths[0]), "logs", "*.log"))
	st := mustStat(t, logs[0])
	b, err := os.ReadFile(logs[0])
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 1
	if err := os.WriteFile(logs[0], b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(logs[0], st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	if r := CheckAll(paths, cache)[0]; r.Cached || len(r.Problems) == 0 {
		t.Errorf("a log rewritten in place with its mtime set back: cached %v, problems %v", r.Cached, r.Problems)
	}
}

func mustStat(t *testing.T, p string) os.FileInfo {
	t.Helper()
	st, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// A FIFO in place of an entry is a miss at once, not a check that hangs
// on it; the entry is written again.
func TestCheckCacheFIFOEntry(t *testing.T) {
	paths := generated(t, 1)
	cache := &CheckCache{Dir: t.TempDir(), Identity: "build-a"}
	CheckAll(paths, cache)
	entries := entryFiles(cache.Dir)
	if len(entries) != 1 {
		t.Fatalf("%d cache entries, want 1", len(entries))
	}
	os.Remove(entries[0])
	if err := syscall.Mkfifo(entries[0], 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan []Checked, 1)
	go func() { done <- CheckAll(paths, cache) }()
	select {
	case rs := <-done:
		if rs[0].Cached || len(rs[0].Problems) != 0 {
			t.Errorf("a FIFO entry: cached %v, problems %v", rs[0].Cached, rs[0].Problems)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("check hung on a FIFO in its cache")
	}
	if r := CheckAll(paths, cache)[0]; !r.Cached {
		t.Error("the FIFO entry was not replaced")
	}
}
