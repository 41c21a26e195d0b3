package engine

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"time"
)

// Event is one server-sent event as received.
type Event struct {
	// Field is "data" for ordinary events and "error" for llama-server's
	// `error:` lines.
	Field string
	Data  []byte
	// At is when the event's terminating blank line arrived.
	At time.Time
}

// ErrDone is returned by the callback of ReadEvents (or by ReadEvents
// itself, never to callers) when the OpenAI-style `data: [DONE]` arrives.
var errDone = errors.New("done")

// ReadEvents parses a text/event-stream body and calls fn for each complete
// event, in order, with its arrival time. It stops at end of stream, at
// `data: [DONE]` (reported as done = true), or at fn's first error. An
// event's Data is valid until fn returns: the next event reuses it, so
// that reading a stream allocates nothing per event.
//
// Multiple data lines of one event are joined with newlines, as the SSE
// specification says; comment lines (starting with ':') and the id, event
// and retry fields are ignored.
func ReadEvents(r io.Reader, now func() time.Time, fn func(Event) error) (done bool, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var data, long []byte
	field := ""
	dispatch := func() error {
		if field == "" {
			return nil
		}
		ev := Event{Field: field, Data: data, At: now()}
		field, data = "", data[:0]
		if ev.Field == "data" && bytes.Equal(bytes.TrimSpace(ev.Data), []byte("[DONE]")) {
			return errDone
		}
		return fn(ev)
	}
	for {
		line, err := readLine(br, &long)
		if err == nil && len(data)+len(line) > MaxEventBytes {
			err = errEventTooLarge
		}
		if err != nil && err != io.EOF {
			return false, fmt.Errorf("event stream: %w", err)
		}
		eof := err == io.EOF
		line = bytes.TrimRight(line, "\r\n")
		switch {
		case len(line) == 0:
			if e := dispatch(); e != nil {
				if e == errDone {
					return true, nil
				}
				return false, e
			}
		case line[0] == ':':
		default:
			name, value, _ := bytes.Cut(line, []byte(":"))
			value = bytes.TrimPrefix(value, []byte(" "))
			switch string(name) {
			case "data", "error":
				if field != "" && field != string(name) {
					if e := dispatch(); e != nil {
						if e == errDone {
							return true, nil
						}
						return false, e
					}
				}
				if field != "" {
					data = grow(data, 1+len(value))
					data = append(data, '\n')
				}
				if field == "" {
					field = fieldName(name)
				}
				data = append(grow(data, len(value)), value...)
			}
		}
		if eof {
			// As the SSE specification says, an event cut off before its
			// blank line is not dispatched: it may be half a JSON object.
			return false, nil
		}
	}
}

var errEventTooLarge = tooLarge("an event", MaxEventBytes)

// readLine reads one line, its newline included, refusing a line longer
// than MaxEventBytes as soon as it has read that much of it: the bound is
// checked while reading, before the line is kept. The line is valid until
// the next call; long holds the pieces of a line longer than br's buffer.
func readLine(br *bufio.Reader, long *[]byte) ([]byte, error) {
	line, err := br.ReadSlice('\n')
	if err != bufio.ErrBufferFull {
		return line, err
	}
	*long = append((*long)[:0], line...)
	for err == bufio.ErrBufferFull {
		line, err = br.ReadSlice('\n')
		n := len(*long) + len(line)
		if n > MaxEventBytes {
			return nil, errEventTooLarge
		}
		*long = append(grow(*long, len(line)), line...)
	}
	return *long, err
}

// fieldName is the event field a line names, without allocating.
func fieldName(name []byte) string {
	if string(name) == "error" {
		return "error"
	}
	return "data"
}

// grow makes room for n more bytes in b, doubling its capacity (up to
// MaxEventBytes) rather than growing it by a quarter as append does for
// large slices: what a large event costs stays about twice its size.
func grow(b []byte, n int) []byte {
	if len(b)+n <= cap(b) {
		return b
	}
	g := make([]byte, len(b), min(max(2*cap(b), len(b)+n), max(MaxEventBytes, len(b)+n)))
	copy(g, b)
	return g
}
