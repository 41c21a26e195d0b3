// Package capped is a writer that keeps the first bytes written to it
// and, when asked, the last: a bounded copy of what a command printed
// (a tool's complaint, an engine's version, a command engine's output, a
// build's log), however much it prints. It never fails a write, so the
// command writing is never stopped by it, and it counts what it did not
// keep, so that the caller can say so.
//
// The package imports nothing of decodebench's.
package capped

import (
	"bytes"
	"sync"
)

// Buffer keeps the first Max bytes written to it and, when Tail is set,
// the last Tail bytes of the rest; it counts what it kept of neither.
// Writes may come from several goroutines (a command's standard output
// and error).
type Buffer struct {
	Max, Tail int
	mu        sync.Mutex
	head      bytes.Buffer
	tail      []byte // at most 2*Tail bytes; its last Tail are kept
	written   int64
}

// Write keeps what fits of p and reports all of it written.
func (c *Buffer) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n0 := len(p)
	c.written += int64(n0)
	if room := c.Max - c.head.Len(); room > 0 {
		n := min(len(p), room)
		c.head.Write(p[:n])
		p = p[n:]
	}
	if c.Tail > 0 && len(p) > 0 {
		if len(p) > c.Tail {
			p = p[len(p)-c.Tail:]
		}
		c.tail = append(c.tail, p...)
		if len(c.tail) > 2*c.Tail {
			c.tail = append(c.tail[:0:0], c.tail[len(c.tail)-c.Tail:]...)
		}
	}
	return n0, nil
}

// Bytes is a copy of the head that was kept.
func (c *Buffer) Bytes() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return bytes.Clone(c.head.Bytes())
}

// String is the head that was kept.
func (c *Buffer) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.head.String()
}

// TailString is the tail that was kept past the head (at most Tail
// bytes).
func (c *Buffer) TailString() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return string(c.tail[max(0, len(c.tail)-c.Tail):])
}

// Dropped counts the bytes written that neither the head nor the tail
// kept.
func (c *Buffer) Dropped() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.written - int64(c.head.Len()) - int64(min(len(c.tail), c.Tail))
}
