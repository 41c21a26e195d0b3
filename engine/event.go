package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"strconv"
	"strings"
	"time"
)

// What one streamed event adds to its reply, and what a token costs
// decodebench (docs/reference/bounds-and-security.md): its text, once,
// in the reply's text and its hash; its id (4 bytes); and, read every
// event, its arrival time (8 bytes) and its event's token count (4
// bytes). Nothing else of an event is kept but the reply's top-level
// fields, each the last value an event gave it. Each of these grows by
// doubling, so that what a reply allocates in all is about twice what it
// keeps.

// eventParts is what a dialect reads from one event: its text and
// reasoning, its token ids, and whether it ends the reply. Its buffers
// are reused from event to event.
type eventParts struct {
	text, reasoning []byte
	ids             []int32
	stop            bool
}

// reply is what a stream's events add up to while it is read, beyond
// what its Response holds.
type reply struct {
	text, reasoning strings.Builder
	sha             hash.Hash
	parts           eventParts
	// final is each top-level field of the events, its value's bytes as
	// the last event that had it gave them (Response.Final, once read);
	// finalBytes is what it keeps (keys, values' capacity, entries).
	final      map[string]*[]byte
	finalBytes int64
	key        []byte
	// maxIDs bounds the token ids kept (idsBound); 0: unbounded.
	maxIDs int
}

func newReply() *reply {
	return &reply{sha: sha256.New(), final: map[string]*[]byte{}}
}

// take reads one event, which arrived at since the request was sent, into
// the response.
func (r *Response) take(d dialect, rp *reply, field string, data []byte, at time.Duration) error {
	r.Events++
	if field == "error" {
		return fmt.Errorf("engine sent an error event: %s", Quote(string(data)))
	}
	obj, err := r.object(data)
	if err != nil || obj == nil {
		return err
	}
	if e := lastMember(obj, "error"); e != nil {
		var v any
		json.Unmarshal(e, &v)
		b, _ := json.Marshal(v)
		return fmt.Errorf("engine reported an error: %s", Quote(string(b)))
	}
	p := &rp.parts
	p.text, p.reasoning, p.ids, p.stop = p.text[:0], p.reasoning[:0], p.ids[:0], false
	d.event(obj, p)
	writeDoubling(&rp.text, p.text)
	writeDoubling(&rp.reasoning, p.reasoning)
	rp.sha.Write(p.text)
	if rp.maxIDs > 0 && len(r.TokenIDs)+len(p.ids) > rp.maxIDs {
		return fmt.Errorf("the engine sent more than %d token ids (max_tokens plus %d): refused", rp.maxIDs, idsMargin)
	}
	r.TokenIDs = appendDoubling(r.TokenIDs, p.ids...)
	n := len(p.ids)
	if n == 0 && (len(p.text) > 0 || len(p.reasoning) > 0) {
		n = 1 // an engine that does not return ids: one token per event
	}
	if n > 0 {
		if r.FirstTokenAt == 0 {
			r.FirstTokenAt, r.TTFT, r.FirstEventTokens = at, at, n
		}
		r.LastTokenAt = at
		r.StreamedTokens += n
		if r.Reads == ReadEveryEvent {
			r.EventsAt = appendDoubling(r.EventsAt, at)
			r.EventTokens = appendDoubling(r.EventTokens, int32(n))
		}
	}
	if err := rp.merge(obj); err != nil {
		return err
	}
	if p.stop {
		r.Done = true
	}
	return nil
}

// object is an event's JSON object, or nil for a null event. Only an
// event encoding/json would refuse, or one with a number whose range it
// must check, is decoded by it (for its own error).
func (r *Response) object(data []byte) (jsonValue, error) {
	v := jsonValue(data[skipSpace(data, 0):])
	for len(v) > 0 && skipSpace(v, len(v)-1) == len(v) {
		v = v[:len(v)-1]
	}
	if json.Valid(data) && v.isObject() {
		if plainNumbers(v) {
			return v, nil
		}
		// Its numbers are checked one by one (one in exponent form
		// made the whole event decode into a map, some 20 times its
		// bytes).
		if err := numbersFit(v); err != nil {
			return nil, fmt.Errorf("malformed stream event %d: %v: %s", r.Events, quoteErr(err), Quote(string(data)))
		}
		return v, nil
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("malformed stream event %d: %v: %s", r.Events, quoteErr(err), Quote(string(data)))
	}
	if m == nil {
		return nil, nil // null: an event of nothing
	}
	return v, nil
}

// numbersFit reports the first number of valid JSON v that a float64
// cannot hold (what decoding it into a map refused), reading v once,
// number by number, outside its strings: a token-by-token decoder took
// about 4 s of CPU for a 32 MiB stream of such numbers.
func numbersFit(v []byte) error {
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '"':
			i = stringEnd(v, i) - 1
		case c == '-' || (c >= '0' && c <= '9'):
			j := i + 1
			for j < len(v) && numberByte(v[j]) {
				j++
			}
			n := v[i:j]
			if _, err := strconv.ParseFloat(string(n), 64); err != nil {
				return fmt.Errorf("json: cannot unmarshal number %s into Go value of type float64", n)
			}
			i = j - 1
		}
	}
	return nil
}

// numberByte is a byte that continues a JSON number.
func numberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'
}

// lastMember is the value of an object's last member named name; nil
// when it has none.
func lastMember(obj jsonValue, name string) jsonValue {
	var out jsonValue
	for k, v := range obj.members {
		if k.is(name) {
			out = v
		}
	}
	return out
}

// finalEntryBytes is what a top-level field costs beyond its key and
// value: its map entry and the slice that holds its value.
const finalEntryBytes = 64

var errFinalTooLarge = tooLarge("the reply's top-level fields (each the last value an event gave it)", MaxFinalBytes)

// merge keeps the bytes of each top-level field of an event over what an
// earlier event gave it, reusing the room of the earlier value.
func (rp *reply) merge(obj jsonValue) error {
	for k, v := range obj.members {
		rp.key = k.appendString(rp.key[:0])
		if p, ok := rp.final[string(rp.key)]; ok {
			before := cap(*p)
			*p = append((*p)[:0], v...)
			rp.finalBytes += int64(cap(*p) - before)
		} else {
			val := append([]byte(nil), v...)
			rp.final[string(rp.key)] = &val
			rp.finalBytes += int64(len(rp.key)+cap(val)) + finalEntryBytes
		}
		if rp.finalBytes > MaxFinalBytes {
			return errFinalTooLarge
		}
	}
	return nil
}

// maxDecodedField bounds a kept top-level field that finalReply decodes:
// a larger one (a hostile engine's 15 MiB array, about 20 times its bytes
// once decoded) is kept as its raw bytes (json.RawMessage), which no
// reader of Final looks into.
const maxDecodedField = 64 << 10

// finalReply decodes the kept top-level fields: the last JSON event of
// the stream merged over the earlier ones'.
func (rp *reply) finalReply() map[string]any {
	out := make(map[string]any, len(rp.final))
	for k, p := range rp.final {
		if len(*p) > maxDecodedField {
			out[k] = json.RawMessage(*p)
			continue
		}
		var v any
		json.Unmarshal(*p, &v) // valid: its event was
		out[k] = v
	}
	return out
}

// idsMargin is how many token ids past max_tokens a stream may send (an
// engine that overruns max_tokens is told by its reply's counts, which
// need its ids); past it the run fails rather than keep ids without end
// (a 15 MiB array of ids in each event).
const idsMargin = 64 << 10

// idsBound is the number of token ids kept for maxTokens.
func idsBound(maxTokens int) int {
	if maxTokens <= 0 {
		return 0
	}
	return maxTokens + idsMargin
}

// finish puts the reply's text, its hash and its fields into r.
func (rp *reply) finish(r *Response) {
	r.Text, r.Reasoning = rp.text.String(), rp.reasoning.String()
	rp.sha.Sum(r.textSHA256[:0])
	r.Final = rp.finalReply()
}

// OutputSHA256 is the hex sha256 of Text, hashed as the text streamed.
func (r *Response) OutputSHA256() string { return hex.EncodeToString(r.textSHA256[:]) }

// writeDoubling appends p to b, at least doubling b's room when it must
// grow (strings.Builder, like append, grows a large buffer by a quarter,
// which allocates about five times the final text).
func writeDoubling(b *strings.Builder, p []byte) {
	if b.Cap()-b.Len() < len(p) {
		b.Grow(max(b.Cap(), len(p))) // room for 2×cap + n
	}
	b.Write(p)
}

// appendDoubling appends to s, at least doubling its capacity when it
// must grow.
func appendDoubling[T any](s []T, add ...T) []T {
	if len(s)+len(add) > cap(s) {
		g := make([]T, len(s), max(2*cap(s), len(s)+len(add), 16))
		copy(g, s)
		s = g
	}
	return append(s, add...)
}
