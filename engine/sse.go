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

// maxEventSize bounds one event so that a runaway stream cannot exhaust
// memory.
const maxEventSize = 16 << 20

// ErrDone is returned by the callback of ReadEvents (or by ReadEvents
// itself, never to callers) when the OpenAI-style `data: [DONE]` arrives.
var errDone = errors.New("done")

// ReadEvents parses a text/event-stream body and calls fn for each complete
// event, in order, with its arrival time. It stops at end of stream, at
// `data: [DONE]` (reported as done = true), or at fn's first error.
//
// Multiple data lines of one event are joined with newlines, as the SSE
// specification says; comment lines (starting with ':') and the id, event
// and retry fields are ignored.
func ReadEvents(r io.Reader, now func() time.Time, fn func(Event) error) (done bool, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var data []byte
	field := ""
	dispatch := func() error {
		if field == "" {
			return nil
		}
		ev := Event{Field: field, Data: data, At: now()}
		field, data = "", nil
		if ev.Field == "data" && bytes.Equal(bytes.TrimSpace(ev.Data), []byte("[DONE]")) {
			return errDone
		}
		return fn(ev)
	}
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > maxEventSize || len(data) > maxEventSize {
			return false, fmt.Errorf("event stream: event larger than %d bytes", maxEventSize)
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
					data = append(data, '\n')
				}
				field = string(name)
				data = append(data, value...)
			}
		}
		if eof {
			// As the SSE specification says, an event cut off before its
			// blank line is not dispatched: it may be half a JSON object.
			return false, nil
		}
	}
}
