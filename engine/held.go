package engine

import (
	"encoding/binary"
	"time"
)

// maxHeldBytes bounds the events of a reply kept undecoded while the
// kernel holds its stream: no more than the kernel itself holds before
// it wakes decodebench (sparseLowWater). A longer reply's events are
// decoded when that much is kept, at a wake-up the kernel made anyway;
// the last of them, and all of a shorter reply's, after the stream.
const maxHeldBytes = sparseLowWater

// heldEvents are the events read after the reply's first token while the
// kernel holds its stream (ReadEnds), kept as they came, one after
// another in one buffer: per event its field (1 byte), its arrival since
// the request was sent (8), its length (4) and its data.
type heldEvents struct {
	buf []byte
	n   int // events kept
}

const heldHead = 1 + 8 + 4

// add keeps an event, or reports that it does not fit.
func (h *heldEvents) add(field string, data []byte, at time.Duration) bool {
	need := len(h.buf) + heldHead + len(data)
	if need > maxHeldBytes {
		return false
	}
	if need > cap(h.buf) {
		g := make([]byte, len(h.buf), min(max(2*cap(h.buf), need, 4<<10), maxHeldBytes))
		copy(g, h.buf)
		h.buf = g
	}
	f := byte(0)
	if field == "error" {
		f = 1
	}
	h.buf = append(h.buf, f)
	h.buf = binary.LittleEndian.AppendUint64(h.buf, uint64(at))
	h.buf = binary.LittleEndian.AppendUint32(h.buf, uint32(len(data)))
	h.buf = append(h.buf, data...)
	h.n++
	return true
}

// drain passes each kept event to fn, in order, and forgets them; it
// stops at fn's first error (the events not passed are forgotten too).
func (h *heldEvents) drain(fn func(field string, data []byte, at time.Duration) error) error {
	b := h.buf
	h.buf, h.n = h.buf[:0], 0
	for len(b) > 0 {
		field := "data"
		if b[0] == 1 {
			field = "error"
		}
		at := time.Duration(binary.LittleEndian.Uint64(b[1:]))
		n := int(binary.LittleEndian.Uint32(b[9:]))
		if err := fn(field, b[heldHead:heldHead+n], at); err != nil {
			return err
		}
		b = b[heldHead+n:]
	}
	return nil
}
