package engine

import (
	"bytes"
	"io"
	"time"
	"unicode/utf8"
)

// The engine's output, assembled into lines: each stream's own unfinished
// line (a command's standard output apart from its standard error), and
// lines past MaxLogLine split.

// Write takes engine output; it is safe for concurrent use.
func (l *Log) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	defer l.flushLocked()
	return l.writeLocked(p, &l.partial)
}

// Stdout is the writer for a command's standard output where its standard
// error goes to Write: each stream's lines reach the log whole, so a line
// the command printed in pieces (llama-completion echoes its prompt token
// by token) is not cut by the other stream's line, which would leave a
// secret in it unmasked, in two pieces, and the stored output unfit to
// the log's.
func (l *Log) Stdout() io.Writer { return stdoutWriter{l} }

type stdoutWriter struct{ l *Log }

func (w stdoutWriter) Write(p []byte) (int, error) {
	w.l.mu.Lock()
	defer w.l.mu.Unlock()
	defer w.l.flushLocked()
	return w.l.writeLocked(p, &w.l.outPartial)
}

// finishPartials ends both streams' unfinished lines, so a marker stands
// alone and nothing is left out at the end.
func (l *Log) finishPartials() {
	for _, part := range []*[]byte{&l.partial, &l.outPartial} {
		if len(*part) > 0 {
			l.addLine(string(*part))
			*part = (*part)[:0]
		}
	}
}

func (l *Log) writeLocked(p []byte, partial *[]byte) (int, error) {
	l.last = time.Now()
	if l.inWindow {
		l.windowBytes += int64(len(p))
	}
	data := p
	if len(*partial) > 0 {
		data = append(*partial, p...)
	}
	for {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break
		}
		l.addLine(string(l.splitLong(bytes.TrimRight(data[:i], "\r"))))
		data = data[i+1:]
	}
	data = l.splitLong(data)
	*partial = append((*partial)[:0], data...)
	return len(p), nil
}

// splitLong adds the pieces of b beyond MaxLogLine as lines of their
// own and returns the rest: a line complete in one write is bounded as
// one that came in pieces. Each cut falls after the last space or tab of
// the piece's final splitSeek bytes, where it has one, so that a word (a
// token or a key the mask hides whole, which a cut through would leave
// in two unmasked halves) stays on one line; else where a character
// starts (a character cut in two would read as two replacement
// characters).
func (l *Log) splitLong(b []byte) []byte {
	for len(b) > MaxLogLine {
		cut := MaxLogLine
		if i := bytes.LastIndexAny(b[MaxLogLine-splitSeek:MaxLogLine], " \t"); i >= 0 {
			cut = MaxLogLine - splitSeek + i + 1
		} else {
			for c := cut; c > MaxLogLine-utf8.UTFMax; c-- {
				if utf8.RuneStart(b[c]) {
					cut = c
					break
				}
			}
		}
		l.addLine(string(b[:cut]))
		b = b[cut:]
	}
	return b
}

// splitSeek is how far back from MaxLogLine a long line's cut looks for
// a space.
const splitSeek = 4096
