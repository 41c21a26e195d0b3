package main

import (
	"strings"
	"testing"
	"time"
)

// A batch of records is silent for its first progressAfter, then says how
// far it has come at most every progressEvery, with the time left from
// the rate so far, and nothing for its last record.
func TestRecordsProgressLines(t *testing.T) {
	var b strings.Builder
	now := time.Date(2026, 12, 5, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	p := newRecordsProgress(&b, "index", clock)
	at := func(d time.Duration, done int) {
		now = time.Date(2026, 12, 5, 0, 0, 0, 0, time.UTC).Add(d)
		p(done, 3000)
	}
	at(time.Second, 100)
	at(progressAfter-time.Millisecond, 299)
	if b.Len() != 0 {
		t.Fatalf("a line before %s: %q", progressAfter, b.String())
	}
	at(progressAfter, 300)
	want := "index: 300 of 3000 records read and checked, 3s so far, about 27s left\n"
	if b.String() != want {
		t.Fatalf("got %q, want %q", b.String(), want)
	}
	at(progressAfter+progressEvery-time.Millisecond, 1000)
	if strings.Count(b.String(), "\n") != 1 {
		t.Fatalf("a second line within %s: %q", progressEvery, b.String())
	}
	at(progressAfter+progressEvery, 1300)
	if !strings.HasSuffix(b.String(), "index: 1300 of 3000 records read and checked, 13s so far, about 17s left\n") {
		t.Fatalf("second line: %q", b.String())
	}
	at(time.Hour, 3000)
	if strings.Count(b.String(), "\n") != 2 {
		t.Fatalf("a line for the last record: %q", b.String())
	}
}
