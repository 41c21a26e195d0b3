package review

import (
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

// A batch tells its Progress of every record once: done runs 1 to the
// number of records (in whatever order the workers finish), each time
// with the batch's size, for a check of many records and for a fleet's
// reading (index, site), where a bisect summary is not counted.
func TestProgressCountsEachRecordOnce(t *testing.T) {
	paths := generated(t, 5)
	var mu sync.Mutex
	var dones []int
	var totals []int
	progress := func(done, total int) {
		mu.Lock()
		defer mu.Unlock()
		dones = append(dones, done)
		totals = append(totals, total)
	}
	want := func(what string, n int) {
		t.Helper()
		slices.Sort(dones)
		if len(dones) != n || dones[0] != 1 || dones[n-1] != n || len(slices.Compact(slices.Clone(dones))) != n {
			t.Errorf("%s: progress told %v, want 1 to %d once each", what, dones, n)
		}
		for _, tot := range totals {
			if tot != n {
				t.Errorf("%s: total %d, want %d", what, tot, n)
			}
		}
		dones, totals = nil, nil
	}
	if got := CheckAllProgress(paths, nil, progress); len(got) != len(paths) {
		t.Fatalf("%d results", len(got))
	}
	want("check", len(paths))
	if _, err := ReadFleetProgress(filepath.Dir(paths[0]), nil, progress); err != nil {
		t.Fatal(err)
	}
	want("fleet", len(paths))
	// Nil tells nothing and changes nothing.
	if got := CheckAllProgress(paths, nil, nil); len(got) != len(paths) {
		t.Fatalf("%d results", len(got))
	}
}
