package capped

import (
	"strconv"
	"strings"
	"sync"
	"testing"
)

// A Buffer keeps its head and its tail whatever the writes' sizes, and
// counts exactly what it kept of neither.
func TestBufferKeepsHeadAndTail(t *testing.T) {
	var all strings.Builder
	c := &Buffer{Max: 10, Tail: 7}
	for i := 0; i < 500; i++ {
		s := strings.Repeat(strconv.Itoa(i%10), 1+i%13)
		all.WriteString(s)
		if n, err := c.Write([]byte(s)); n != len(s) || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	w := all.String()
	if c.String() != w[:10] || c.TailString() != w[len(w)-7:] || c.Dropped() != int64(len(w)-17) {
		t.Errorf("head %q tail %q dropped %d; want %q %q %d", c.String(), c.TailString(), c.Dropped(), w[:10], w[len(w)-7:], len(w)-17)
	}
	short := &Buffer{Max: 4, Tail: 4}
	short.Write([]byte("abcdef"))
	if short.String() != "abcd" || short.TailString() != "ef" || short.Dropped() != 0 {
		t.Errorf("short: %q %q %d", short.String(), short.TailString(), short.Dropped())
	}
}

// Without a Tail a Buffer keeps its head alone, counts the rest as
// dropped, and never refuses a write, from however many writers.
func TestBufferHeadOnly(t *testing.T) {
	c := &Buffer{Max: 100}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				if n, err := c.Write([]byte("0123456789")); n != 10 || err != nil {
					t.Errorf("Write = %d, %v", n, err)
				}
			}
		}()
	}
	wg.Wait()
	if len(c.String()) != 100 || c.TailString() != "" || c.Dropped() != 8*100*10-100 {
		t.Errorf("head %d bytes, tail %q, dropped %d", len(c.String()), c.TailString(), c.Dropped())
	}
	b := c.Bytes()
	b[0] = 'x'
	if c.String()[0] != '0' {
		t.Error("Bytes shares the buffer's memory")
	}
	empty := &Buffer{Max: 0}
	empty.Write([]byte("abc"))
	if empty.String() != "" || empty.Dropped() != 3 {
		t.Errorf("Max 0: %q, dropped %d", empty.String(), empty.Dropped())
	}
}
