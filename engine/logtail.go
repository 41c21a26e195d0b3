package engine

import (
	"fmt"
	"unicode/utf8"
)

// Tail returns the last lines the engine wrote, redacted, each at most
// tailLineBytes.
func (l *Log) Tail() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.drainLocked()
	lines := l.tail
	if len(lines) > tailSize {
		lines = lines[len(lines)-tailSize:]
	}
	out := make([]string, 0, len(lines)+1)
	for _, s := range lines {
		out = append(out, l.red(cutLine(s)))
	}
	for _, part := range [][]byte{l.partial, l.outPartial} {
		if len(part) > 0 {
			out = append(out, l.red(cutLine(string(part))))
		}
	}
	return out
}

// cutLine shortens a line for an error's log tail.
func cutLine(s string) string {
	if len(s) <= tailLineBytes {
		return s
	}
	cut := tailLineBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("… (%d more bytes)", len(s)-cut)
}
